import RunusCore
import Tracking

/// Reads GPX 1.0 and 1.1 in one pass over the bytes (record 0110).
///
/// Track points (`<trkpt>`) of every `<trk>` and `<trkseg>` become one activity, in file order,
/// with `segmentStarts` marking each non-empty segment; a file without track points falls back
/// to its route points (`<rtept>`). Per point: `lat`/`lon` attributes, `<ele>`, `<time>`, and
/// heart rate and cadence from any extension whose local name is `hr`/`heartrate` or
/// `cad`/`cadence` (Garmin TrackPointExtension v1/v2, Cluetrust gpxdata). A point without a
/// time gets NaN, without an elevation `nil`. Garmin Connect's top-level `<extensions>`
/// (`distance`, `moving_time`, `elapsed_time`, `average_hr`, `start_time`) become device totals.
public enum GPXReader {
    public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> Activity {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(ReadFailure) in try parse(buffer) }
        } catch {
            throw error.named(name, bytes: bytes, text: true)
        }
    }

    private enum Field { case none, ele, time, hr, cad, type, totalDistance, movingTime, elapsedTime, averageHR, startTime }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(ReadFailure) -> Activity {
        var xml = XMLScanner(buffer)
        var trackPoints: [TrackPoint] = [], routePoints: [TrackPoint] = []
        var trackSegments: [Int] = [], routeSegments: [Int] = []
        var totals = DeviceTotals()
        var sport: String? = nil
        var sawRoot = false
        var inPoint = false, pointIsRoute = false, newSegment = true
        var point = TrackPoint(time: .nan, latitude: 0, longitude: 0)
        var field = Field.none
        var topExtensionsDepth = -1
        var records = 0
        while true {
            let event = try xml.next()
            switch event {
            case .start:
                if !sawRoot {
                    guard xml.nameIs("gpx") else {
                        throw ReadFailure(.unsupported, at: xml.eventOffset, "expected the root element <gpx>, found <\(xml.string(xml.nameStart, xml.nameEnd))>")
                    }
                    sawRoot = true
                    continue
                }
                if inPoint {
                    if xml.nameIs("ele") { field = .ele }
                    else if xml.nameIs("time") { field = .time }
                    else if xml.nameIs("hr") || xml.nameIs("heartrate") { field = .hr }
                    else if xml.nameIs("cad") || xml.nameIs("cadence") { field = .cad }
                    else { field = .none }
                } else if xml.nameIs("trkpt") || xml.nameIs("rtept") {
                    pointIsRoute = xml.nameIs("rtept")
                    guard let lat = xml.attribute("lat"), let lon = xml.attribute("lon") else {
                        throw ReadFailure(.malformed, at: xml.eventOffset, "<\(pointIsRoute ? "rtept" : "trkpt")> without lat and lon attributes")
                    }
                    guard let latitude = ByteNumbers.double(buffer, lat.start, lat.end), (-90...90).contains(latitude) else {
                        throw ReadFailure(.malformed, at: lat.start, "lat=\"\(xml.string(lat.start, lat.end))\" is not a latitude in [-90, 90]")
                    }
                    guard let longitude = ByteNumbers.double(buffer, lon.start, lon.end), (-360...360).contains(longitude) else {
                        throw ReadFailure(.malformed, at: lon.start, "lon=\"\(xml.string(lon.start, lon.end))\" is not a longitude in [-180, 180]")
                    }
                    point = TrackPoint(time: .nan, latitude: latitude, longitude: longitude)
                    inPoint = true
                    field = .none
                } else if xml.nameIs("trkseg") || xml.nameIs("rte") {
                    newSegment = true
                } else if xml.depth == 2 && xml.nameIs("extensions") {
                    topExtensionsDepth = 2
                } else if topExtensionsDepth > 0 && xml.depth == topExtensionsDepth + 1 {
                    if xml.nameIs("distance") { field = .totalDistance }
                    else if xml.nameIs("moving_time") { field = .movingTime }
                    else if xml.nameIs("elapsed_time") { field = .elapsedTime }
                    else if xml.nameIs("average_hr") { field = .averageHR }
                    else if xml.nameIs("start_time") { field = .startTime }
                    else { field = .none }
                } else if xml.depth == 3 && xml.nameIs("type") && sport == nil {
                    field = .type
                }
            case .text:
                let s = xml.textStart, e = xml.textEnd
                func number(_ what: String) throws(ReadFailure) -> Double {
                    guard let v = ByteNumbers.double(buffer, s, e), v.isFinite else {
                        throw ReadFailure(.malformed, at: s, "<\(what)> holds \"\(xml.string(s, e))\", expected a number")
                    }
                    return v
                }
                switch field {
                case .none: break
                case .ele: point.elevation = try number("ele")
                case .time:
                    guard let t = ByteNumbers.isoInstant(buffer, s, e) else {
                        throw ReadFailure(.malformed, at: s, "<time> holds \"\(xml.string(s, e))\", expected an ISO 8601 instant")
                    }
                    point.time = t
                case .hr: point.heartRate = try number("hr")
                case .cad: point.cadence = try number("cad")
                case .type: sport = xml.string(s, e).lowercased()
                case .totalDistance: totals.distance = try number("distance")
                case .movingTime: totals.movingTime = try number("moving_time")
                case .elapsedTime: totals.elapsedTime = try number("elapsed_time")
                case .averageHR: totals.averageHeartRate = try number("average_hr")
                case .startTime: totals.startTime = ByteNumbers.isoInstant(buffer, s, e)
                }
            case .end:
                field = .none
                if inPoint && (xml.nameIs("trkpt") || xml.nameIs("rtept")) {
                    inPoint = false
                    records += 1
                    if pointIsRoute {
                        if newSegment { routeSegments.append(routePoints.count); newSegment = false }
                        routePoints.append(point)
                    } else {
                        if newSegment { trackSegments.append(trackPoints.count); newSegment = false }
                        trackPoints.append(point)
                    }
                } else if topExtensionsDepth > 0 && xml.depth < topExtensionsDepth {
                    topExtensionsDepth = -1
                }
            case .eof:
                guard sawRoot else { throw ReadFailure(.truncated, at: xml.eventOffset, "no <gpx> element") }
                let useRoute = trackPoints.isEmpty
                return Activity(sport: sport, track: Track(points: useRoute ? routePoints : trackPoints),
                                segmentStarts: useRoute ? routeSegments : trackSegments,
                                recordCount: records, deviceTotals: totals)
            }
        }
    }
}
