import Foundation
import RunusCore

/// A runners folder as import items (layout: the datasets README; `runners.csv`,
/// `activities.csv`, `tracks/<runner>/<activity_id>.csv.gz`).
extension RunnersDataset {
    public struct ImportPlan {
        public var items: [ImportItem] = []
        /// One per runner, ordered by id: time zone from the runner's usual UTC offset.
        public var profiles: [UserProfile] = []
        /// Rows left out before reading anything, by reason.
        public var skipped: [String: Int] = [:]
        /// Rows that could not be read (a bad date or number), by "activities.csv:LINE".
        public var failed: [(name: String, message: String)] = []
    }

    /// The import items of the folder at `folder`, in `activities.csv` order.
    public static func importPlan(folder: String) throws -> ImportPlan {
        let file = try ActivitiesFile(folder: folder, whenMissing: "not a runners dataset folder: runners.csv, activities.csv, tracks/")
        let (header, lines, column) = (file.header, file.lines, file.column)
        let cRunner = try column("runner"), cID = try column("activity_id"), cSport = try column("sport")
        let cStart = try column("start_utc"), cOffset = try column("utc_offset_s"), cDistance = try column("distance_m")
        let cMoving = try column("moving_time_s"), cElapsed = try column("elapsed_time_s")
        let cHasTrack = try column("has_track"), cStatus = try column("track_status")

        var plan = ImportPlan()
        // By the ids' bytes, as the store tells runners apart (`ExactText`).
        var offsets: [ExactText: [Int: Int]] = [:]
        for (n, line) in lines.enumerated() {
            let name = "activities.csv:\(n + 2)"
            let f = CSV.fields(line)
            guard f.count == header.count else {
                plan.failed.append((name, "\(f.count) fields, the header has \(header.count)")); continue
            }
            let runner = f[cRunner]
            guard !runner.isEmpty, !f[cID].isEmpty else { plan.failed.append((name, "empty runner or activity_id")); continue }
            let key = ExactText(runner)
            if offsets[key] == nil { offsets[key] = [:] }
            // A range test, not `abs`: the file may say -9223372036854775808, which `abs` traps on.
            if let offset = Int(f[cOffset]), (-14 * 3600...14 * 3600).contains(offset) { offsets[key]?[offset, default: 0] += 1 }
            guard f[cSport] == "run" else { plan.skipped["sport \(f[cSport].isEmpty ? "unknown" : f[cSport])", default: 0] += 1; continue }
            guard let start = isoInstant(f[cStart]) else {
                plan.failed.append((name, "start_utc '\(f[cStart].prefix(40))' is not YYYY-MM-DDTHH:MM:SSZ")); continue
            }
            guard start >= ImportConversion.earliestStart else {
                plan.skipped[ImportConversion.bogusClockReason, default: 0] += 1; continue
            }
            var summary: ImportSummary?
            if let d = Double(f[cDistance]), let t = Double(f[cMoving]), d > 0, t > 0, d.isFinite, t.isFinite {
                let elapsed = Double(f[cElapsed]).flatMap { $0.isFinite && $0 >= t ? $0 : nil } ?? t
                summary = ImportSummary(start: start, distance: d, moving: t, elapsed: elapsed)
            }
            let id = ImportConversion.datasetRunID(runner: runner, activityID: f[cID])
            let what = "\(runner) activity \(f[cID])"
            if f[cHasTrack] == "1" {
                let track = "\(folder)/tracks/\(runner)/\(f[cID]).csv.gz"
                plan.items.append(ImportItem(runner: runner, source: .datasetTrack(path: track, summary: summary),
                                             runID: id, name: what))
            } else if let summary {
                plan.items.append(ImportItem(runner: runner, source: .summary(summary), runID: id, name: what))
            } else {
                plan.skipped["no track and no summary (track_status \(f[cStatus].isEmpty ? "empty" : f[cStatus]))", default: 0] += 1
            }
        }
        plan.profiles = offsets.sorted(by: { Array($0.key.text.utf8).lexicographicallyPrecedes(Array($1.key.text.utf8)) })
            .map { runner, counts in
            // The most frequent offset; ties go to the smaller one (deterministic).
            let usual = counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 0
            return UserProfile(id: runner.text, timeZone: zoneName(utcOffset: usual), utcOffsetSeconds: usual)
        }
        return plan
    }

    /// A time-zone name for a fixed UTC offset in seconds (record 0603): "UTC" for 0, the IANA
    /// `Etc/GMT∓h` zone for whole hours (note the inverted sign: Etc/GMT-8 is UTC+8), else
    /// Foundation's fixed-offset form "GMT+hhmm". Every result resolves to the offset itself.
    public static func zoneName(utcOffset seconds: Int) -> String {
        if seconds == 0 { return "UTC" }
        if seconds % 3600 == 0, (-12...14).contains(seconds / 3600) {
            let h = seconds / 3600
            return "Etc/GMT\(h > 0 ? "-" : "+")\(abs(h))"
        }
        let minutes = abs(seconds) / 60
        func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
        return "GMT\(seconds > 0 ? "+" : "-")\(two(minutes / 60))\(two(minutes % 60))"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` as Unix seconds (the dataset's only layout), nil otherwise.
    public static func isoInstant(_ text: String) -> EpochSeconds? {
        let b = Array(text.utf8)
        guard b.count == 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A else {
            return nil
        }
        func number(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2), let h = number(11, 2),
              let mi = number(14, 2), let s = number(17, 2), h < 24, mi < 60, s < 61,
              let date = CivilDate(year: y, month: mo, day: d) else { return nil }
        return Double(date.daysSinceEpoch * 86_400 + h * 3600 + mi * 60 + s)
    }
}
