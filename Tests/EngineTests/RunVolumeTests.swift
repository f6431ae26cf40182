import Testing
import RunusCore
import Tracking
@testable import Engine

/// Record 0233: volume no human runs earns nothing (issue 55, found 2026-12-07: 300
/// back-to-back 10 km summaries in 1.2 s claimed 3,000 km in 5.7 days, 30,000 XP, level 25).
@Suite("daily and weekly volume bounds (record 0233)")
struct RunVolumeTests {
    static let start: EpochSeconds = 1_800_000_000

    static func run(_ id: String, start: EpochSeconds, km: Double, rewarded: Bool = true) -> RunRecord {
        RunRecord(id: id, userID: "u", startTime: start, distance: km * 1000, elapsed: km * 240, moving: km * 240,
                  elevationGain: 0, source: "test", rewarded: rewarded, unrewardedReason: rewarded ? nil : "too_old")
    }

    /// Distance (m) of the rewarded runs starting in [from, from + seconds).
    static func rewarded(_ runs: [RunRecord], from: EpochSeconds, seconds: Double) -> Double {
        runs.filter { $0.rewarded && $0.startTime >= from && $0.startTime < from + seconds }.reduce(0) { $0 + $1.distance }
    }

    @Test("300 back-to-back 10 km summaries: no 24 hours reward more than 320 km nor 7 days more than 1,100 km; every run is kept")
    func stackedSummaries() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "u"))
        let now = Self.start + 300 * 2400 + 3600
        var rules = PlausibilityRules()
        rules.rewardWindow = 30 * 86_400  // the first runs are 8 days old by the last
        let ingestion = RunIngestion(store: store, rules: rules)
        var answers: [JSONValue] = []
        for k in 0..<300 {
            // 10 km in 40 min at 4:00/km, one after another: 360 km a day if all counted.
            let summary = RunSummary(startTime: Self.start + Double(k) * 2400, distance: 10_000, duration: 2400)
            answers.append(try ingestion.ingest(user: "u", clientRunID: "s\(k)", input: .summary(summary), now: now))
        }
        let runs = try store.runs(user: "u", from: 0, to: .greatestFiniteMagnitude)
        #expect(runs.count == 300, "every run is stored")
        let starts = runs.map(\.startTime)
        for from in starts {
            #expect(Self.rewarded(runs, from: from, seconds: 86_400) <= 320_000, "24 h from \(from)")
            #expect(Self.rewarded(runs, from: from, seconds: 7 * 86_400) <= 1_100_000, "7 days from \(from)")
        }
        let over = runs.filter { $0.unrewardedReason == UnrewardedReason.overVolume }
        // Rewarded up to the bounds, not short of them: the week holds 1,100 km.
        #expect(Self.rewarded(runs, from: Self.start, seconds: 7 * 86_400) == 1_100_000)
        #expect(over.count + runs.filter(\.rewarded).count == 300)
        #expect(over.count >= 300 - 8 * 32, "at most 32 runs a day over 8.3 days earn")
        #expect(over.allSatisfy { !$0.rewarded && !$0.isEvidence })
        #expect(answers[31]["unrewarded"] == .null && answers[31]["xp"]?["run"] != 0, "the 32nd run makes 320 km: it earns")
        let refused = try #require(answers[32]["unrewarded"])
        #expect(refused["reason"] == "over_volume", "the 33rd run of the first day: \(refused)")
        #expect(refused["message"]?.stringValue?.contains("330.0 km in 24 hours") == true, "\(refused)")
        #expect(answers[32]["xp"]?["run"] == 0, "\(answers[32])")
        // Run XP only for the rewarded runs.
        #expect(try store.rewards(user: "u").filter { $0.reason == RewardReason.run }.count == runs.filter(\.rewarded).count)
    }

    @Test("the verdict sums every window holding the run, late arrivals too; unrewarded runs do not count; at the bound it earns")
    func windows() {
        let day = PlausibilityRules.volumeBounds[0]
        // 310 km rewarded the 20 h after this run's start: a run sent late is summed forward.
        let later = [Self.run("a", start: Self.start + 3600, km: 150), Self.run("b", start: Self.start + 20 * 3600, km: 160)]
        #expect(PlausibilityRules.volumeVerdict(of: Self.run("x", start: Self.start, km: 10), among: later) == nil)
        #expect(PlausibilityRules.volumeVerdict(of: Self.run("x", start: Self.start, km: 10.001), among: later)?.code == "over_volume")
        // A window ending at the run: 23 h before.
        let earlier = [Self.run("c", start: Self.start - 23 * 3600, km: 315)]
        #expect(PlausibilityRules.volumeVerdict(of: Self.run("x", start: Self.start, km: 6), among: earlier)?.code == "over_volume")
        // Windows are [from, from + 24 h): a run exactly 24 h earlier shares none with it.
        let dayBefore = [Self.run("d", start: Self.start - day.window, km: 315)]
        #expect(PlausibilityRules.volumeVerdict(of: Self.run("x", start: Self.start, km: 6), among: dayBefore) == nil)
        // Unrewarded runs and the run itself (sent again) do not count.
        let unrewarded = [Self.run("e", start: Self.start + 60, km: 400, rewarded: false), Self.run("x", start: Self.start, km: 319)]
        #expect(PlausibilityRules.volumeVerdict(of: Self.run("x", start: Self.start, km: 319), among: unrewarded) == nil)
        // The weekly bound binds when each day is within its own.
        let week = (0..<6).map { Self.run("w\($0)", start: Self.start - Double($0 + 1) * 86_400, km: 180) }
        #expect(PlausibilityRules.volumeVerdict(of: Self.run("x", start: Self.start, km: 20), among: week) == nil)
        let verdict = PlausibilityRules.volumeVerdict(of: Self.run("x", start: Self.start, km: 21), among: week)
        #expect(verdict?.code == "over_volume" && verdict?.sentence.contains("7 days") == true, "\(String(describing: verdict))")
    }

    @Test("a seeded fuzz of run sets: the verdict agrees with a brute-force sum over every window")
    func bruteForce() {
        var rng = SeededGenerator(seed: 233)
        for _ in 0..<300 {
            let others = (0..<rng.int(in: 0...40)).map { k in
                // On a 5-minute grid, so that the brute force's grid holds every run's start.
                Self.run("o\(k)", start: Self.start + Double(rng.int(in: -2_304...2_304)) * 300, km: rng.uniform(0, 120),
                         rewarded: rng.bernoulli(0.8))
            }
            let run = Self.run("x", start: Self.start, km: rng.uniform(0, 200))
            var expected = false
            for bound in PlausibilityRules.volumeBounds {
                // Every window [from, from + w) holding the run, stepped by 5 minutes.
                for from in stride(from: Self.start - bound.window + 300, through: Self.start, by: 300) {
                    let total = Self.rewarded(others.filter { $0.id != "x" }, from: from, seconds: bound.window) + run.distance
                    if total > bound.distance { expected = true }
                }
            }
            #expect((PlausibilityRules.volumeVerdict(of: run, among: others) != nil) == expected)
        }
    }
}
