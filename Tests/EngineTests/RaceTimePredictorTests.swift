import Testing
import Foundation
import RunusCore
@testable import Engine

@Suite("RaceTimePredictor")
struct RaceTimePredictorTests {
    let now: EpochSeconds = 1_800_000_000
    let day: Double = 86_400

    @Test("without an earlier usable run there is no prediction")
    func noHistory() {
        let p = RaceTimePredictor()
        #expect(p.predict(distance: 10_000, at: now, from: []) == nil)
        // Too short, too old, or not before `at`.
        let unusable = [Effort(time: now - day, distance: 1000, duration: 240),
                        Effort(time: now - 400 * day, distance: 10_000, duration: 2400),
                        Effort(time: now, distance: 10_000, duration: 2400)]
        #expect(p.predict(distance: 10_000, at: now, from: unusable) == nil)
    }

    @Test("one run: the prediction is Riegel's formula")
    func oneRun() throws {
        let e = Effort(time: now - day, distance: 5000, duration: 1500)
        let predicted = try #require(RaceTimePredictor().predict(distance: 10_000, at: now, from: [e]))
        // Relative tolerance: floating point only.
        #expect(abs(predicted - 1500 * pow(2, 1.06)) < 1e-9 * predicted)
        #expect(RaceTimePredictor().riegel(distance: 10_000, at: now, from: [e]) == predicted)
    }

    @Test("a recent run at the target distance outweighs an old fast one; Riegel takes the old one")
    func recencyAndDistance() throws {
        let oldFast = Effort(time: now - 300 * day, distance: 5000, duration: 1200)   // 4:00/km, 10 months ago
        let recent = (1...8).map { Effort(time: now - Double($0) * 3 * day, distance: 10_000, duration: 3000) } // 5:00/km
        let p = RaceTimePredictor()
        let ours = try #require(p.predict(distance: 10_000, at: now, from: [oldFast] + recent))
        let riegel = try #require(p.riegel(distance: 10_000, at: now, from: [oldFast] + recent))
        #expect(abs(ours - 3000) < 1)
        #expect(riegel < 2600)
    }

    /// Real data (skips without it): the floor, at least 20 % lower MAPE than Riegel.
    @Test("on the shared runners' personal bests, MAPE is at least 20 % lower than Riegel's",
          .enabled(if: FileManager.default.fileExists(atPath: RaceTimePredictorTests.activities),
                   "needs ../shared/datasets/runners/activities.csv (or RUNUS_DATASETS)"))
    func realRunners() throws {
        let text = try String(contentsOfFile: Self.activities, encoding: .utf8)
        var runs: [String: [Effort]] = [:]
        let lines = text.split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let c = { (name: String) in header.firstIndex(of: name)! }
        let iso = Date.ISO8601FormatStyle()
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f[c("sport")] == "run", let d = Double(f[c("distance_m")]), let t = Double(f[c("moving_time_s")]),
                  d >= 1000, t > 0, (1.5...7).contains(d / t), let start = try? iso.parse(f[c("start_utc")]) else { continue }
            runs[f[c("runner")], default: []].append(Effort(time: start.timeIntervalSince1970, distance: d, duration: t))
        }
        let m = RaceTimeEvaluation(runs: runs).meanAbsolutePercentageError()
        #expect(m.count >= 100)
        #expect(m.ours <= 0.8 * m.riegel, "ours \(m.ours) vs Riegel \(m.riegel)")
    }

    static var activities: String {
        let root = ProcessInfo.processInfo.environment["RUNUS_DATASETS"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().path + "/shared/datasets"
        return root + "/runners/activities.csv"
    }
}
