#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// Seed files written here, one or two per format, so that the file mutator has every reader to
/// aim at when the shared datasets are absent (and the repository ships no track files): a
/// 10-minute run at 1 Hz with elevation, heart rate and cadence, as GPX 1.1 with Garmin
/// extensions, GPX 1.0 without times, TCX with two laps, CSV, GeoJSON (MultiLineString with
/// `coordTimes`), and FIT (plain and with compressed timestamps, a lap and a session). Each is
/// named after what it has.
public enum SeedCorpus {
    /// Start of the synthetic run: 2024-05-01T06:00:00Z.
    public static let start = 1_714_543_200.0

    struct Fix { var t: Double; var lat: Double; var lon: Double; var ele: Double; var hr: Int; var cad: Int }

    static func fixes(_ count: Int = 600) -> [Fix] {
        (0..<count).map { k in
            let phase = Double(k) / 60
            return Fix(t: start + Double(k), lat: 47.0 + Double(k) * 2.7e-5, lon: 8.5 + 1e-4 * sin(phase),
                       ele: 400 + 5 * sin(phase / 3), hr: 130 + k % 25, cad: 84 + k % 5)
        }
    }

    static func iso(_ t: Double) -> String {
        let day = CivilDate(instant: t, utcOffset: 0)
        let s = Int(t) % 86_400
        func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
        return "\(day)T\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))Z"
    }

    /// Every seed, names unique.
    public static var files: [SeedFile] {
        [gpx11(), gpx10(), tcx(), csv(), geojson(), fit(compressed: false), fit(compressed: true)]
    }

    static func gpx11() -> SeedFile {
        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" version="1.1" creator="runus-fuzz">
          <metadata><time>\(iso(start))</time></metadata>
          <trk><name>seed</name><type>running</type><trkseg>

        """
        for f in fixes() {
            s += "      <trkpt lat=\"\(f.lat)\" lon=\"\(f.lon)\"><ele>\(f.ele)</ele><time>\(iso(f.t))</time>"
            s += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(f.hr)</gpxtpx:hr><gpxtpx:cad>\(f.cad)</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>\n"
        }
        s += "    </trkseg></trk>\n</gpx>\n"
        return SeedFile(name: "gpx11-garmin-extensions.gpx", bytes: Array(s.utf8))
    }

    static func gpx10() -> SeedFile {
        var s = "<?xml version=\"1.0\"?>\n<gpx version=\"1.0\" creator=\"hand\"><trk><trkseg>\n"
        for f in fixes(120) { s += "<trkpt lat=\"\(f.lat)\" lon=\"\(f.lon)\"><ele>\(f.ele)</ele></trkpt>\n" }
        s += "</trkseg><trkseg></trkseg></trk></gpx>\n"
        return SeedFile(name: "gpx10-no-times-empty-segment.gpx", bytes: Array(s.utf8))
    }

    static func tcx() -> SeedFile {
        let all = fixes()
        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
          <Activities><Activity Sport="Running"><Id>\(iso(start))</Id>

        """
        var distance = 0.0
        for lap in [all[0..<300], all[300...]] {
            let first = lap.first!
            s += "<Lap StartTime=\"\(iso(first.t))\"><TotalTimeSeconds>\(Double(lap.count))</TotalTimeSeconds><DistanceMeters>\(Double(lap.count) * 3)</DistanceMeters><Track>\n"
            for f in lap {
                distance += 3
                s += "<Trackpoint><Time>\(iso(f.t))</Time><Position><LatitudeDegrees>\(f.lat)</LatitudeDegrees><LongitudeDegrees>\(f.lon)</LongitudeDegrees></Position>"
                s += "<AltitudeMeters>\(f.ele)</AltitudeMeters><DistanceMeters>\(distance)</DistanceMeters><HeartRateBpm><Value>\(f.hr)</Value></HeartRateBpm>"
                s += "<Extensions><ns3:TPX><ns3:RunCadence>\(f.cad)</ns3:RunCadence></ns3:TPX></Extensions></Trackpoint>\n"
            }
            s += "</Track></Lap>\n"
        }
        s += "</Activity></Activities></TrainingCenterDatabase>\n"
        return SeedFile(name: "tcx-two-laps-hr-cadence.tcx", bytes: Array(s.utf8))
    }

    static func csv() -> SeedFile {
        var s = "t,lat,lon,ele,hr,cad\n"
        for (k, f) in fixes().enumerated() {
            s += k % 97 == 5 ? "\(f.t + 0.25),,,,\(f.hr),\n" : "\(Int(f.t)),\(f.lat),\(f.lon),\(f.ele),\(f.hr),\(f.cad)\n"
        }
        return SeedFile(name: "csv-empty-positions-fractional-times.csv", bytes: Array(s.utf8))
    }

    static func geojson() -> SeedFile {
        let all = fixes()
        let parts = [all[0..<400], all[400...]]
        let coordinates = parts.map { "[" + $0.map { "[\($0.lon),\($0.lat),\($0.ele)]" }.joined(separator: ",") + "]" }
        let times = parts.map { "[" + $0.map { "\"\(iso($0.t))\"" }.joined(separator: ",") + "]" }
        let rates = parts.map { "[" + $0.map { "\($0.hr)" }.joined(separator: ",") + "]" }
        let s = """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"coordTimes":[\(times.joined(separator: ","))],\
        "heartRates":[\(rates.joined(separator: ","))]},"geometry":{"type":"MultiLineString","coordinates":[\(coordinates.joined(separator: ","))]}}]}

        """
        return SeedFile(name: "geojson-multilinestring-coordtimes.geojson", bytes: Array(s.utf8))
    }
}
