import Testing
import Foundation
import RunusCore
import Engine
import Storage
import Training

/// Record 0650 (amended): `StreakCalibration` scores the streak forecast on constructed run days.
@Suite("streak calibration")
struct StreakCalibrationTests {
    static let first = CivilDate(year: 2026, month: 1, day: 5)!  // a Monday
    static let days = 70

    /// A store with "daily", who runs every day of `days`, and "mwf", who runs Mondays,
    /// Wednesdays and Fridays, at 07:00 UTC.
    static func store(_ directory: String) throws -> SQLiteStore {
        let store = try SQLiteStore(path: directory + "/cal.sqlite")
        for (user, ranOn) in [("daily", { (_: Int) in true }), ("mwf", { (d: Int) in [0, 2, 4].contains(d % 7) })] {
            try store.upsertUser(UserProfile(id: user, timeZone: "UTC"))
            for d in 0..<days where ranOn(d) {
                let start = first.adding(days: d).startInstant(utcOffset: 0) + 7 * 3600
                _ = try store.insertRun(RunRecord(id: "\(user)-\(d)", userID: user, startTime: start, distance: 5000,
                                                  elapsed: 1800, moving: 1800, elevationGain: 0, source: "test"))
            }
        }
        return store
    }

    @Test("regular schedules are foretold: anchors after 28 days of record and 6 before the last run day; the rows differ only by weight")
    func regular() throws {
        let directory = NSTemporaryDirectory() + "runus-streak-cal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.store(directory)
        defer { try? store.close() }
        let calibration = try StreakCalibration(store: store, weights: [1, 16], halfLives: [nil, 3], resolver: FixedOffsetResolver())
        #expect(calibration.runners == 2)
        // daily: days 28 … 63 (36); mwf: its run days among 28 … 61 (its last run is on day 67).
        let mwf = (28...(67 - StreakCalibration.horizon)).filter { [0, 2, 4].contains($0 % 7) }.count
        for row in calibration.rows {
            #expect(row.anchors == 36 + mwf, "\(row)")
            #expect(row.judged == row.anchors * StreakCalibration.horizon)
            // The daily runner always runs the next days; mwf never runs two days in a row, so
            // each of its streaks fails on the first day. The forecast knows both.
            #expect(row.logLoss < 0.05 && row.brier < 0.01, "\(row)")
            #expect(abs(row.meanForecast - row.rate) < 0.05, "\(row)")
        }
        #expect(calibration.rows.map(\.weight) == [1, 16, 1, 16])
        #expect(calibration.rows.map(\.halfLifeWeeks) == [nil, nil, 3, 3])
        #expect(calibration.table().contains("| none |"))
        #expect(calibration.table().contains("| 16 |") || calibration.table().contains("| 16.0 |"))
    }
}
