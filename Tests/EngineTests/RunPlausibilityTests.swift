import Testing
import RunusCore
import Tracking
@testable import Engine

@Suite("run plausibility, duplicates and stored-run checks (record 0230, 0231)")
struct RunPlausibilityTests {
    static let now: EpochSeconds = 1_800_000_000

    static func fixes(_ times: [EpochSeconds]) -> [TrackPoint] {
        times.enumerated().map { i, t in TrackPoint(time: t, latitude: 37.5 + Double(i) * 1e-4, longitude: 127) }
    }

    @Test("the structural checks refuse with the fix named, and accept the limits themselves")
    func structural() throws {
        let rules = PlausibilityRules()
        #expect(throws: RunRefusal.tooFewFixes(count: 1)) { try rules.check(points: Self.fixes([Self.now]), now: Self.now) }
        #expect(throws: RunRefusal.outOfOrder(index: 2, time: Self.now - 50, previous: Self.now - 40)) {
            try rules.check(points: Self.fixes([Self.now - 60, Self.now - 40, Self.now - 50]), now: Self.now)
        }
        #expect(throws: RunRefusal.gap(index: 1, seconds: 6 * 3600 + 1, limit: 6 * 3600)) {
            try rules.check(points: Self.fixes([Self.now - 7 * 3600, Self.now - 3600 + 1]), now: Self.now)
        }
        #expect(throws: RunRefusal.inTheFuture(index: 1, time: Self.now + 301, serverTime: Self.now, limit: 300)) {
            try rules.check(points: Self.fixes([Self.now, Self.now + 301]), now: Self.now)
        }
        let long = stride(from: Self.now - 49 * 3600, through: Self.now - 3600 + 1, by: 3600).map { $0 }
        #expect(throws: RunRefusal.tooLong(seconds: 48 * 3600 + 1, limit: 48 * 3600)) {
            try rules.check(points: Self.fixes(long + [Self.now - 3600 + 1]), now: Self.now)
        }
        // At the limits: equal times, a 6 h gap, 48 h, 5 min ahead.
        let fine = Self.fixes([Self.now - 48 * 3600 + 300, Self.now - 48 * 3600 + 300, Self.now - 42 * 3600 + 300,
                               Self.now - 36 * 3600 + 300, Self.now - 30 * 3600 + 300, Self.now - 24 * 3600 + 300,
                               Self.now - 18 * 3600 + 300, Self.now - 12 * 3600 + 300, Self.now - 6 * 3600 + 300, Self.now + 300])
        #expect(throws: Never.self) { try rules.check(points: fine, now: Self.now) }
    }

    @Test("world-record times interpolate the table and bound the plausible")
    func worldRecords() {
        #expect(WorldRecordPace.recordTime(over: 5000) == 755.36)
        #expect(abs(WorldRecordPace.recordTime(over: 50) - 4.79) < 1e-9)
        let t7k = WorldRecordPace.recordTime(over: 7000)
        #expect(t7k > 755.36 && t7k < 1571)
        // Monotone in distance, and in speed: slower over longer distances.
        var previous = (time: 0.0, speed: Double.infinity)
        for d in stride(from: 200.0, through: 400_000, by: 997) {
            let t = WorldRecordPace.recordTime(over: d)
            #expect(t > previous.time && d / t <= previous.speed * (1 + 1e-12), "at \(d) m")
            previous = (t, d / t)
        }
        #expect(WorldRecordPace.isSuperhuman(distance: 5000, time: 600))
        #expect(!WorldRecordPace.isSuperhuman(distance: 5000, time: 0.9 * 755.36))
        #expect(WorldRecordPace.isSuperhuman(distance: 3500, time: 0))
        #expect(WorldRecordPace.isSuperhuman(distance: 3500, time: .nan))
        #expect(!WorldRecordPace.isSuperhuman(distance: 0, time: 0))
    }

    @Test("reward verdicts: too short, too fast, too old, in that order; an ordinary run earns")
    func verdicts() {
        let rules = PlausibilityRules()
        #expect(rules.rewardVerdict(start: Self.now - 3600, distance: 5000, moving: 1800, now: Self.now) == nil)
        #expect(rules.rewardVerdict(start: Self.now - 3600, distance: 99, moving: 1800, now: Self.now)?.code == "too_short")
        #expect(rules.rewardVerdict(start: Self.now - 3600, distance: 5000, moving: 59, now: Self.now)?.code == "too_short")
        #expect(rules.rewardVerdict(start: Self.now - 3600, distance: 5000, moving: 600, now: Self.now)?.code == "too_fast")
        #expect(rules.rewardVerdict(start: Self.now - 8 * 86_400, distance: 5000, moving: 1800, now: Self.now)?.code == "too_old")
        #expect(rules.rewardVerdict(start: Self.now - 7 * 86_400 + 1, distance: 5000, moving: 1800, now: Self.now) == nil)
    }

    static func run(_ id: String, start: EpochSeconds, elapsed: Seconds, user: UserID = "u") -> RunRecord {
        RunRecord(id: id, userID: user, startTime: start, distance: 5000, elapsed: elapsed, moving: elapsed,
                  elevationGain: 0, source: "app")
    }

    @Test("a run overlapping a stored one by half the shorter one's time is its duplicate; less is not")
    func duplicates() {
        let stored = [Self.run("phone", start: 1000, elapsed: 1800), Self.run("other", start: 5000, elapsed: 600)]
        #expect(DuplicateRun.original(of: Self.run("watch", start: 1004, elapsed: 1790), among: stored)?.id == "phone")
        #expect(DuplicateRun.original(of: Self.run("late", start: 1000 + 1800 - 899, elapsed: 1800), among: stored) == nil,
                "899 s shared of 1800 is under half")
        #expect(DuplicateRun.original(of: Self.run("half", start: 1000 + 900, elapsed: 1800), among: stored)?.id == "phone")
        #expect(DuplicateRun.original(of: Self.run("next", start: 2900, elapsed: 1800), among: stored) == nil)
        // The same id is the idempotent path, not a duplicate; another runner never is.
        #expect(DuplicateRun.original(of: Self.run("phone", start: 1000, elapsed: 1800), among: stored) == nil)
        #expect(DuplicateRun.original(of: Self.run("x", start: 1000, elapsed: 1800, user: "v"), among: stored) == nil)
        // A short run inside a long one; a zero-length run at an instant of one.
        #expect(DuplicateRun.original(of: Self.run("short", start: 5100, elapsed: 300), among: stored)?.id == "other")
        #expect(DuplicateRun.original(of: Self.run("blink", start: 5200, elapsed: 0), among: stored)?.id == "other")
    }

    @Test("stored runs: impossible numbers are skipped, clampable ones repaired, ordinary ones read as they are")
    func storedRuns() {
        let ok = Self.run("ok", start: Self.now, elapsed: 1800)
        #expect(ok.checkedForReading() == .valid(ok))
        func skipped(_ change: (inout RunRecord) -> Void) -> Bool {
            var r = ok
            change(&r)
            if case .skipped = r.checkedForReading() { return true }
            return false
        }
        #expect(skipped { $0.startTime = .nan })
        #expect(skipped { $0.startTime = -1 })
        #expect(skipped { $0.distance = .infinity })
        #expect(skipped { $0.elapsed = 1.2e8 })
        #expect(skipped { $0.moving = -1 })
        #expect(skipped { $0.distance = 3500; $0.elapsed = 0.1 })
        var odd = ok
        odd.moving = 2000; odd.elevationGain = -3; odd.calories = .nan
        guard case .repaired(let repaired, let reason) = odd.checkedForReading() else { Issue.record("expected a repair"); return }
        #expect(repaired.moving == 1800 && repaired.elevationGain == 0 && repaired.calories == nil)
        #expect(reason.contains("moving_s") && reason.contains("elevation_gain_m") && reason.contains("calories_kcal"))
    }
}
