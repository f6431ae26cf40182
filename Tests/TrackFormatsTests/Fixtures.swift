/// Track files written for these tests, each named after the edge case it covers.
enum Fixtures {
    static let gpx10NoNamespaceNoTimes = """
    <?xml version="1.0"?>
    <gpx version="1.0" creator="hand">
      <trk><trkseg>
        <trkpt lat="46.0" lon="14.0"><ele>300</ele></trkpt>
        <trkpt lat="46.001" lon="14.0"/>
        <trkpt lat="46.002" lon="14.0"><ele>310.5</ele></trkpt>
      </trkseg></trk>
    </gpx>
    """

    static let gpx11GarminTwoTracksThreeSegments = """
    \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
    <!-- exported by hand; <trkpt> in a comment is not a point -->
    <gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" version="1.1" creator="t">
      <metadata><time>2024-01-01T00:00:00Z</time></metadata>
      <trk><name><![CDATA[Morning <run>]]></name><type>running</type>
        <trkseg>
          <trkpt lat='47.0000' lon="8.5000"><ele>400</ele><time>2024-05-01T06:00:00Z</time>
            <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>85</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>
          <trkpt lat="47.0001" lon="8.5000"><ele>401</ele><time>2024-05-01T06:00:01.500Z</time>
            <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>121</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        </trkseg>
        <trkseg></trkseg>
        <trkseg>
          <trkpt lat="47.0002" lon="8.5000"><time>2024-05-01T08:00:02+02:00</time></trkpt>
        </trkseg>
      </trk>
      <trk><trkseg>
        <trkpt lat="47.0003" lon="8.5000"><!-- no elevation here --><time>2024-05-01T06:00:03Z</time></trkpt>
      </trkseg></trk>
    </gpx>
    """

    static let gpxCluetrustUndeclaredPrefix = """
    <gpx version="1.1"><trk><trkseg>
      <trkpt lat="-33.9" lon="151.2"><time>2024-02-02T10:00:00Z</time><extensions><gpxdata:hr>150</gpxdata:hr><gpxdata:cadence>88</gpxdata:cadence></extensions></trkpt>
      <trkpt lat="-33.9001" lon="151.2"><time>2024-02-02T10:00:01Z</time><extensions><gpxdata:hr>151</gpxdata:hr></extensions></trkpt>
    </trkseg></trk></gpx>
    """

    static let gpxRouteOnly = """
    <gpx version="1.1"><rte><rtept lat="10" lon="20"/><rtept lat="10.001" lon="20"/></rte></gpx>
    """

    static let gpxGarminConnectTotals = """
    <gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1">
      <extensions>
    <distance>5012.5</distance>
    <average_hr>141.0</average_hr>
    <moving_time>1500.0</moving_time>
    <elapsed_time>1560.25</elapsed_time>
    <start_time>2024-06-05T10:00:30+00:00</start_time>
    </extensions>
      <trk><trkseg><trkpt lat="1" lon="2"><time>2024-06-05T10:00:30Z</time></trkpt></trkseg></trk>
    </gpx>
    """

    static let gpxBadLatitudeOnLine3 = """
    <gpx version="1.1"><trk><trkseg>
    <trkpt lat="1" lon="2"/>
    <trkpt lat="north" lon="2"/>
    </trkseg></trk></gpx>
    """

    static let gpxMismatchedEndTag = "<gpx><trk><trkseg></trk></trkseg></gpx>"

    static let tcxTwoLapsRunCadenceNoPosition = """
    <?xml version="1.0" encoding="UTF-8"?>
    <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
      <Activities>
        <Activity Sport="Running">
          <Id>2024-03-03T07:00:00Z</Id>
          <Lap StartTime="2024-03-03T07:00:00Z">
            <TotalTimeSeconds>100.0</TotalTimeSeconds><DistanceMeters>300.0</DistanceMeters><Calories>20</Calories>
            <AverageHeartRateBpm><Value>140</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>150</Value></MaximumHeartRateBpm>
            <Track>
              <Trackpoint><Time>2024-03-03T07:00:00Z</Time><Position><LatitudeDegrees>51.5</LatitudeDegrees><LongitudeDegrees>-0.1</LongitudeDegrees></Position>
                <AltitudeMeters>20</AltitudeMeters><DistanceMeters>0</DistanceMeters><HeartRateBpm><Value>130</Value></HeartRateBpm>
                <Extensions><ns3:TPX><ns3:RunCadence>86</ns3:RunCadence></ns3:TPX></Extensions></Trackpoint>
              <Trackpoint><Time>2024-03-03T07:00:05Z</Time><HeartRateBpm><Value>131</Value></HeartRateBpm></Trackpoint>
              <Trackpoint><Time>2024-03-03T07:00:10Z</Time><Position><LatitudeDegrees>51.5003</LatitudeDegrees><LongitudeDegrees>-0.1</LongitudeDegrees></Position></Trackpoint>
            </Track>
          </Lap>
          <Lap StartTime="2024-03-03T07:01:40Z">
            <TotalTimeSeconds>300.0</TotalTimeSeconds><DistanceMeters>900.0</DistanceMeters><Calories>60</Calories>
            <AverageHeartRateBpm><Value>160</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>170</Value></MaximumHeartRateBpm>
            <Track>
              <Trackpoint><Time>2024-03-03T07:01:40Z</Time><Position><LatitudeDegrees>51.501</LatitudeDegrees><LongitudeDegrees>-0.1</LongitudeDegrees></Position></Trackpoint>
            </Track>
          </Lap>
        </Activity>
        <Activity Sport="Biking"><Id>2024-03-04T07:00:00Z</Id>
          <Lap StartTime="2024-03-04T07:00:00Z"><TotalTimeSeconds>60</TotalTimeSeconds><DistanceMeters>500</DistanceMeters>
            <Track><Trackpoint><Time>2024-03-04T07:00:00Z</Time><Position><LatitudeDegrees>51.6</LatitudeDegrees><LongitudeDegrees>-0.1</LongitudeDegrees></Position><Cadence>90</Cadence></Trackpoint></Track>
          </Lap>
        </Activity>
      </Activities>
    </TrainingCenterDatabase>
    """

    static let geojsonMultiLineStringWithCoordTimes = """
    {"type":"FeatureCollection","features":[
      {"type":"Feature","properties":{"name":"x","coordTimes":[["2024-04-04T05:00:00Z","2024-04-04T05:00:01Z"],["2024-04-04T05:10:00Z"]],
        "heartRates":[[100,101],[110]]},
       "geometry":{"type":"MultiLineString","coordinates":[[[8.5,47.0,400],[8.5,47.0001,401]],[[8.5,47.0005]]]}},
      {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
      {"type":"Feature","properties":{"times":[1712207400,1712207401.5]},
       "geometry":{"type":"LineString","coordinates":[[8.6,47.1],[8.6,47.1001]]}}
    ]}
    """

    static let csvWithEmptyPositionAndFractionalTime = """
    t,lat,lon,ele,hr,cad
    1700000000,47.0,8.5,400.5,120,170
    1700000001.25,,,,121,
    1700000002,47.0001,8.5,,122,171
    1700000003,47.0002,8.5,401,,

    """
}
