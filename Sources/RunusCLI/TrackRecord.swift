import Foundation
import RunusCore
import Tracking
import TrackFormats

/// The run record of one activity as `runus track --json` writes it (docs/track-json.md).
enum TrackRecord {
    static func json(path: String, index: Int, format: TrackFileFormat, activity a: Activity, metrics m: RunMetrics,
                     parts: [MergedActivityPart]) -> JSONValue {
        func opt(_ v: Double?) -> JSONValue { v.map { .number($0) } ?? .null }
        func splits(_ s: [Split]) -> JSONValue {
            .array(s.map { .object(["index": .number(Double($0.index)), "distance_m": .number($0.distance),
                                    "moving_s": .number($0.duration), "moving_pace_s_per_km": .number($0.pace)]) })
        }
        let t = a.deviceTotals
        // Seconds from the first cleaned fix (where `parts` are timed from) to the record's start.
        let lead = m.activityParts.first.map { m.startTime - $0.startTime } ?? 0
        return .object([
            "file": .string(path), "activity_index": .number(Double(index)), "format": .string(format.rawValue),
            "sport": a.sport.map { .string($0) } ?? .null, "points": .number(Double(a.track.points.count)),
            "records": .number(Double(a.recordCount)), "track_segments": .number(Double(a.segmentStarts.count)),
            "device_readings": .number(Double(a.track.deviceDistances.count)),
            "start_time": .number(m.startTime),
            "distance_m": .number(m.distance), "distance_source": .string(m.distanceSource.rawValue),
            "gps_distance_m": opt(m.gpsDistance), "device_distance_note": m.deviceDistanceNote.map { .string($0) } ?? .null,
            "elapsed_s": .number(m.elapsed), "moving_s": .number(m.moving),
            "elapsed_pace_s_per_km": opt(m.averagePace), "moving_pace_s_per_km": opt(m.movingPace),
            "splits": splits(m.splits), "mile_splits": splits(m.mileSplits),
            "best_efforts": .array(m.bestEfforts().map { .object(["distance_m": .number($0.distance), "elapsed_s": .number($0.seconds)]) }),
            "elevation_gain_m": .number(m.elevationGain), "elevation_loss_m": .number(m.elevationLoss),
            "calories_kcal": opt(m.calories),
            "avg_hr": opt(m.averageHeartRate), "max_hr": opt(m.maxHeartRate),
            "avg_cadence_spm": opt(m.averageCadence), "max_cadence_spm": opt(m.maxCadence),
            // Offsets from `start_time`, as runs.ingest's `excluded` (a cut leading part is negative).
            "segments": .array(parts.map { .object(["activity": .string($0.activity.description),
                                                    "start_offset_s": .number($0.start - lead),
                                                    "end_offset_s": .number($0.end - lead), "path_m": .number($0.path)]) }),
            "device": .object([
                "distance_m": opt(t.distance), "timer_s": opt(t.timerTime), "elapsed_s": opt(t.elapsedTime),
                "moving_s": opt(t.movingTime), "elevation_gain_m": opt(t.ascent), "elevation_loss_m": opt(t.descent),
                "avg_hr": opt(t.averageHeartRate), "max_hr": opt(t.maximumHeartRate), "calories_kcal": opt(t.calories),
            ]),
        ])
    }
}

/// The people's table of `runus track`: one aligned line per activity (the pace is moving time per km).
enum TrackTable {
    static let columns: [(title: String, width: Int)] = [
        ("distance", 9), ("from", 7), ("gps", 9), ("elapsed", 8), ("moving", 8), ("moving pace", 11), ("best 1 km", 9),
        ("best 5 km", 9), ("ascent", 7), ("avg hr", 6), ("kcal", 6), ("left out", 8), ("device", 9),
    ]
    static var header: String {
        columns.map { pad($0.title, $0.width) }.joined(separator: "  ") + "  activity\n"
    }

    static func row(path: String, index: Int, format: TrackFileFormat, activity a: Activity, metrics m: RunMetrics,
                    parts: [MergedActivityPart]) -> String {
        let efforts = Dictionary(m.bestEfforts(over: [1000, 5000]).map { ($0.distance, $0.seconds) }, uniquingKeysWith: { a, _ in a })
        let vehicle = parts.filter { $0.activity == .vehicle }.reduce(0.0) { $0 + $1.end - $1.start }
        var cells: [String] = []
        cells.append(String(format: "%.2f km", m.distance / 1000))
        cells.append(m.distanceSource.rawValue)
        cells.append(m.gpsDistance.map { String(format: "%.2f km", $0 / 1000) } ?? "-")
        cells.append(clock(m.elapsed))
        cells.append(clock(m.moving))
        // The moving pace, as every daemon answer gives it (record 0533).
        cells.append(m.movingPace.map { clock($0) + "/km" } ?? "-")
        cells.append(efforts[1000].map(clock) ?? "-")
        cells.append(efforts[5000].map(clock) ?? "-")
        cells.append(String(format: "%.0f m", m.elevationGain))
        cells.append(m.averageHeartRate.map { String(format: "%.0f", $0) } ?? "-")
        cells.append(m.calories.map { String(format: "%.0f", $0) } ?? "-")
        cells.append(vehicle > 0 ? clock(vehicle) : "-")
        cells.append(a.deviceTotals.distance.map { String(format: "%.2f km", $0 / 1000) } ?? "-")
        let name = path + (index > 0 ? " #\(index)" : "") + (a.sport.map { " (\($0))" } ?? "")
        return zip(cells, columns).map { pad($0, $1.width) }.joined(separator: "  ") + "  " + name + "\n"
    }

    /// h:mm:ss, or m:ss under an hour; "-" when not finite.
    static func clock(_ seconds: Seconds) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "-" }
        let s = Int(saturating: seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
