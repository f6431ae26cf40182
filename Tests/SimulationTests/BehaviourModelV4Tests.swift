import Testing
import RunusCore
import Tracking
import Missions
@testable import Simulation
#if canImport(Glibc)
import Glibc
#endif

/// The truth of the schema v4 kinds as docs/simulation.md states it (record 0642), and loop
/// routes that the loop check reads as the plan meant.
@Suite("BehaviourModel v4 kinds")
struct BehaviourModelV4Tests {
    static let tolerance = 1e-12
    static let body = Physiology(traits: MissionBoundaryOnSynthesizedTracksTests.traits)

    func logit(_ p: Double) -> Double { log(p / (1 - p)) }
    func p(_ spec: MissionSpec, hour: Double = 8, week: Meters = 0) -> Double {
        BehaviourModel.probability(of: spec, state: Self.body, usualStartHour: hour, weekSoFar: week)
    }

    @Test("clock kinds pay 1.2 per hour the start moves beyond the 0.5 h margin, nothing within it")
    func clockShift() {
        let d = Self.body.endurance
        let free = p(.earlyBird(beforeMinute: 510, minDistance: d), hour: 8)  // limit 8:30, usual 8:00
        #expect(abs(logit(free) - 2.6) < 1e-9)
        let moved = p(.earlyBird(beforeMinute: 390, minDistance: d), hour: 8)  // limit 6:30: 1.5 + 0.5 h
        #expect(abs(logit(free) - logit(moved) - 1.2 * 2) < 1e-9)
        let owl = p(.nightOwl(afterMinute: 1260, minDistance: d), hour: 19)  // from 21:00, usual 19:00
        #expect(abs(2.6 - logit(owl) - 1.2 * 2.5) < 1e-9)
    }

    @Test("loop, intervals, fartlek and weekly volume follow their stated terms")
    func terms() {
        let e = Self.body.endurance
        #expect(abs(logit(p(.loop(maxGap: 100, minDistance: e))) - logit(p(.loop(maxGap: 50, minDistance: e))) - 0.8 * log(2)) < 1e-9)
        let easy = MissionSpec.intervals(reps: 5, repDistance: 400, maxPace: Self.body.racePace(over: 400) / 0.9, maxRecovery: 120)
        #expect(abs(logit(p(easy)) - (1.6 - log(2000 / e))) < 1e-9)
        let fartlek = MissionSpec.fartlek(surges: 6, minSurge: 36 * e / 1000 / 6)
        #expect(abs(logit(p(fartlek)) - 1.7) < 1e-9)
        // Weekly volume: only what is left of the target counts.
        #expect(abs(p(.weeklyVolume(distance: 20_000), week: 20_000 - e) - p(.weeklyVolume(distance: e))) < Self.tolerance)
    }

    @Test("a closed-loop plan ends near its start, a one-way plan far away")
    func loopRoutes() {
        for seed: UInt64 in [1, 2, 3] {
            for (route, passes) in [(RunPlan.Route.closedLoop, true), (.oneWay, false)] {
                var rng = SeededGenerator(seed: seed)
                var plan = RunPlan(legs: [RunPlan.Leg(distance: 5000, pace: 360, mode: .run)])
                plan.route = route
                let track = TrackSynthesizer(traits: MissionBoundaryOnSynthesizedTracksTests.traits)
                    .track(plan: plan, start: MissionBoundaryOnSynthesizedTracksTests.start, rng: &rng)
                let verdict = MissionEvaluator.evaluate(.loop(maxGap: 50, minDistance: 4900), track: track)
                #expect((verdict.status == .completed) == passes, "seed \(seed) \(route): \(verdict.evidence)")
            }
        }
    }
}
