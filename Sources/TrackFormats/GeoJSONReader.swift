import RunusCore
import Tracking

/// Reads GeoJSON tracks (record 0113): a `FeatureCollection`, a `Feature` or a bare geometry;
/// every `LineString` and `MultiLineString` (also inside a `GeometryCollection`) adds segments
/// to one activity. Positions are `[lon, lat]` or `[lon, lat, ele]`. Times come from the
/// feature's properties, in the conventions of togeojson and gpx2geojson: `coordTimes` or
/// `times` (an array per LineString, an array of arrays per MultiLineString), or
/// `coordinateProperties.times`; each time is an ISO 8601 string or Unix seconds. Heart rates
/// likewise from `heartRates` or `coordinateProperties.heart`. Without times, fixes get NaN.
public enum GeoJSONReader {
    public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> Activity {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let error as JSONParseError {
            let problem: TrackReadProblem = error.offset >= bytes.count ? .truncated : .malformed
            throw ReadFailure(problem, at: error.offset, error.message).named(name, bytes: bytes, text: true)
        } catch {
            throw ReadFailure(.malformed, at: 0, "\(error)").named(name, bytes: bytes, text: true)
        }
        var activity = Activity()
        var points: [TrackPoint] = []
        do {
            try collect(root, properties: nil, into: &points, segments: &activity.segmentStarts)
        } catch {
            throw error.named(name, bytes: bytes, text: false)
        }
        activity.track = Track(points: points)
        activity.recordCount = points.count
        return activity
    }

    private static func collect(_ value: JSONValue, properties: JSONValue?, into points: inout [TrackPoint],
                                segments: inout [Int]) throws(ReadFailure) {
        guard let type = value["type"]?.stringValue else {
            throw ReadFailure(.unsupported, at: 0, "GeoJSON object without a \"type\"")
        }
        switch type {
        case "FeatureCollection":
            for feature in value["features"]?.arrayValue ?? [] {
                try collect(feature, properties: nil, into: &points, segments: &segments)
            }
        case "Feature":
            if let geometry = value["geometry"], !geometry.isNull {
                try collect(geometry, properties: value["properties"], into: &points, segments: &segments)
            }
        case "GeometryCollection":
            for g in value["geometries"]?.arrayValue ?? [] {
                try collect(g, properties: properties, into: &points, segments: &segments)
            }
        case "LineString":
            try line(value["coordinates"], times: series(properties, ["coordTimes", "times"], "times"),
                     heart: series(properties, ["heartRates"], "heart"), into: &points, segments: &segments)
        case "MultiLineString":
            let lines = value["coordinates"]?.arrayValue ?? []
            let times = series(properties, ["coordTimes", "times"], "times")?.arrayValue
            let heart = series(properties, ["heartRates"], "heart")?.arrayValue
            for (k, l) in lines.enumerated() {
                try line(l, times: times.flatMap { k < $0.count ? $0[k] : nil },
                         heart: heart.flatMap { k < $0.count ? $0[k] : nil }, into: &points, segments: &segments)
            }
        default:
            break  // points and polygons are not tracks
        }
    }

    private static func series(_ properties: JSONValue?, _ names: [String], _ nested: String) -> JSONValue? {
        for n in names { if let v = properties?[n], !v.isNull { return v } }
        return properties?["coordinateProperties"]?[nested]
    }

    private static func line(_ coordinates: JSONValue?, times: JSONValue?, heart: JSONValue?,
                             into points: inout [TrackPoint], segments: inout [Int]) throws(ReadFailure) {
        guard let coords = coordinates?.arrayValue else {
            throw ReadFailure(.malformed, at: 0, "LineString without a \"coordinates\" array")
        }
        let timeValues = times?.arrayValue ?? []
        let heartValues = heart?.arrayValue ?? []
        if !coords.isEmpty { segments.append(points.count) }
        for (k, c) in coords.enumerated() {
            guard let xs = c.arrayValue, xs.count >= 2, let lon = xs[0].doubleValue, let lat = xs[1].doubleValue,
                  (-90...90).contains(lat) else {
                throw ReadFailure(.malformed, at: 0, "position \(k) of a LineString is not [lon, lat(, ele)] with lat in [-90, 90]")
            }
            var time = Double.nan
            if k < timeValues.count {
                if let t = timeValues[k].doubleValue { time = t }
                else if let s = timeValues[k].stringValue {
                    let bytes = Array(s.utf8)
                    guard let t = bytes.withUnsafeBufferPointer({ ByteNumbers.isoInstant($0, 0, $0.count) }) else {
                        throw ReadFailure(.malformed, at: 0, "time \(k) \"\(s)\" is not an ISO 8601 instant")
                    }
                    time = t
                }
            }
            let hr = k < heartValues.count ? heartValues[k].doubleValue : nil
            points.append(TrackPoint(time: time, latitude: lat, longitude: lon,
                                     elevation: xs.count >= 3 ? xs[2].doubleValue : nil, heartRate: hr))
        }
    }
}
