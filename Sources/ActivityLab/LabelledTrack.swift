import RunusCore
import Tracking

/// A track with one known activity, from one person: the unit of classifier evaluation.
public struct LabelledTrack: Sendable {
    /// Who recorded it: the unit of the held-out split (record 0145).
    public let person: String
    public let activity: ActivityClass
    public let track: Track
    /// Where it comes from, e.g. a GeoLife segment id or a runner's activity id ("" if unknown).
    public let source: String
    public init(person: String, activity: ActivityClass, track: Track, source: String = "") {
        self.person = person; self.activity = activity; self.track = track; self.source = source
    }
}

/// Parsers for the labelled-mode tables of the evaluation (GeoLife points and per-activity CSV
/// tracks). They take text, never paths: the caller reads (and unzips) the files.
public enum LabelledTrackParser {
    /// The class of a GeoLife transport mode, nil for modes left out (airplane, boat).
    public static func activity(geoLifeMode mode: String) -> ActivityClass? {
        switch mode {
        case "walk": .walk
        case "run": .run
        case "bike": .cycle
        case "bus", "car", "taxi", "subway", "train", "motorcycle": .vehicle
        default: nil
        }
    }

    /// The class of a runners' activity `sport` (run, walk, hike, ride), nil for other sports.
    public static func activity(sport: String) -> ActivityClass? {
        switch sport {
        case "run": .run
        case "walk", "hike": .walk
        case "ride": .cycle
        default: nil
        }
    }

    /// Splits one CSV line into fields (double quotes group, `""` escapes a quote).
    public static func fields(_ line: Substring) -> [Substring] {
        guard line.contains("\"") else { return line.split(separator: ",", omittingEmptySubsequences: false) }
        var result: [Substring] = [], current = "", quoted = false
        var iterator = line.makeIterator()
        while let c = iterator.next() {
            if c == "\"" { quoted.toggle(); if !quoted { continue } else { continue } }
            if c == "," && !quoted { result.append(Substring(current)); current = "" } else { current.append(c) }
        }
        result.append(Substring(current))
        return result
    }

    /// GeoLife `points.csv` text (`user,segment_id,mode,t,lat,lon,alt_m`, header first) as one
    /// labelled track per segment, in file order; modes without a class are skipped.
    /// - Throws: `LabelledTrackError` naming the line when a field is missing or not a number.
    public static func geoLifePoints(_ text: String) throws -> [LabelledTrack] {
        var result: [LabelledTrack] = []
        var currentSegment: Substring = "", person = "", activity: ActivityClass? = nil
        var points: [TrackPoint] = []
        func flush() {
            if let activity, !points.isEmpty {
                result.append(LabelledTrack(person: "geolife_" + person, activity: activity, track: Track(points: points),
                                            source: String(currentSegment)))
            }
            points = []
        }
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lineNumber += 1
            if lineNumber == 1 { continue }
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count >= 6 else { throw LabelledTrackError(line: lineNumber, message: "expected 7 fields, got \(f.count)") }
            if f[1] != currentSegment {
                flush()
                currentSegment = f[1]; person = String(f[0]); activity = Self.activity(geoLifeMode: String(f[2]))
            }
            guard activity != nil else { continue }
            guard let t = Double(f[3]), let lat = Double(f[4]), let lon = Double(f[5]) else {
                throw LabelledTrackError(line: lineNumber, message: "t, lat, lon must be numbers, got '\(line)'")
            }
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon))
        }
        flush()
        return result
    }

    /// A runners' track CSV (`t,lat,lon,ele,hr,cad`, header first); records without a position
    /// are skipped.
    /// - Throws: `LabelledTrackError` naming the line when `t` is not a number.
    public static func trackCSV(_ text: String) throws -> Track {
        var points: [TrackPoint] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lineNumber += 1
            if lineNumber == 1 { continue }
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count >= 3, let t = Double(f[0]) else {
                throw LabelledTrackError(line: lineNumber, message: "expected a time in the first field, got '\(line)'")
            }
            guard let lat = Double(f[1]), let lon = Double(f[2]) else { continue }
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon))
        }
        return Track(points: points)
    }
}

/// A labelled-track table that could not be read: the line (1-based) and what was wrong.
public struct LabelledTrackError: Error, CustomStringConvertible {
    public let line: Int
    public let message: String
    public var description: String { "line \(line): \(message)" }
}
