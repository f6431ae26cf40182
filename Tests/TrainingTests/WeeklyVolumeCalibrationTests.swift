import Testing
import Foundation
import RunusCore
import Engine
import Features
import Storage
import Training

/// Record 0655: `WeeklyVolumeCalibration` scores the weekly-volume forecast on constructed weeks.
@Suite("weekly volume calibration")
struct WeeklyVolumeCalibrationTests {
    static let first = CivilDate(year: 2026, month: 1, day: 5)!  // a Monday
    static let days = 84

    /// A store with "mwf", who runs 5 km on Mondays, Wednesdays and Fridays at 07:00 UTC, and
    /// "none", who never runs.
    static func store(_ directory: String) throws -> SQLiteStore {
        let store = try SQLiteStore(path: directory + "/weekly.sqlite")
        try store.upsertUser(UserProfile(id: "none", timeZone: "UTC"))
        try store.upsertUser(UserProfile(id: "mwf", timeZone: "UTC"))
        for d in 0..<days where [0, 2, 4].contains(d % 7) {
            let start = first.adding(days: d).startInstant(utcOffset: 0) + 7 * 3600
            _ = try store.insertRun(RunRecord(id: "mwf-\(d)", userID: "mwf", startTime: start, distance: 5000,
                                              elapsed: 1800, moving: 1800, elevationGain: 0, source: "test"))
        }
        return store
    }

    @Test("a regular runner's weeks are foretold: anchors are the run days after 28 days of record whose week ends by the last run; rows per half-life and spread")
    func regular() throws {
        let directory = NSTemporaryDirectory() + "runus-weekly-cal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.store(directory)
        defer { try? store.close() }
        let calibration = try WeeklyVolumeCalibration(store: store, halfLives: [3, nil], spreads: [0, 0.2], resolver: FixedOffsetResolver())
        #expect(calibration.runners == 1)
        // Run days from day 28 (29 days of record) whose Sunday is at most the last run (day 81, a
        // Friday): weeks 4 … 10, three run days each.
        let anchors = (28..<Self.days).filter { [0, 2, 4].contains($0 % 7) && $0 - $0 % 7 + 6 <= 81 }.count
        #expect(calibration.rows.map(\.halfLifeWeeks) == [3, nil, 3, nil])
        #expect(calibration.rows.map(\.spread) == [0, 0, 0.2, 0.2])
        for row in calibration.rows {
            #expect(row.anchors == anchors, "\(row.anchors) vs \(anchors)")
            #expect(row.all.judged >= anchors && row.byBin.reduce(0) { $0 + $1.judged } == row.all.judged)
            // The schedule never changes: the forecast is sure, and right, without a week's factor.
            let a = row.all
            if row.spread == 0 {
                #expect(a.mean(a.logLoss) < 0.05 && a.mean(a.brier) < 0.01, "\(row)")
            }
            #expect(abs(a.mean(a.forecast) - a.mean(a.cameTrue)) < 0.1, "\(row)")
        }
        let table = calibration.table()
        #expect(table.contains("| none |") && table.contains("Reliability"))
    }
}
