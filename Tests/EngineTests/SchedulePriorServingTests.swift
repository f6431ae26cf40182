import Foundation
import Testing
import RunusCore
import Features
import Missions
@testable import Engine

/// A scorer like `FarBelowScorer` that serves a schedule prior, as a model trained with one does.
private struct PriorScorer: MissionScorer {
    let version = "prior-1"
    let schedulePrior: SchedulePrior
    func probabilities(_ rows: [[Double]]) -> [Double] { rows.map { _ in 0.01 } }
}

/// Record 0668: the served model's schedule prior reaches the streak and weekly-volume
/// probabilities of `missions.score` and `missions.today`; a scorer without one serves the
/// runner's own record, as before.
@Suite("schedule prior served")
struct SchedulePriorServingTests {
    static let prior = try! SchedulePrior(usualShare: 0.95, otherShare: 0.02, weightDays: 512)

    @Test("missions.score and missions.today forecast streaks and weekly volumes with the scorer's prior")
    func scoredAndOfferedWithPrior() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        for r in StreakMissionTests.schedule("ana") { _ = try store.insertRun(r) }
        let now = StreakMissionTests.tuesday.startInstant(utcOffset: 0) + 6 * 3600
        let state = RunnerState(history: StreakMissionTests.schedule("ana"), asOf: StreakMissionTests.tuesday.startInstant(utcOffset: 0))
        let specs: [MissionSpec] = [.streak(days: 4), .weeklyVolume(distance: 20_000)]
        let withPrior = MissionService(store: store, scorer: PriorScorer(schedulePrior: Self.prior), policy: TodayPolicy(band: 0.3...0.9))
        let plain = MissionService(store: store, scorer: FarBelowScorer(), policy: TodayPolicy(band: 0.3...0.9))
        let scored = try withPrior.score(user: "ana", specs: specs, day: nil, now: now).missions
        let own = try plain.score(user: "ana", specs: specs, day: nil, now: now).missions
        let streak = StreakForecast.probability(days: 4, state: state, prior: Self.prior)
        let weekly = try #require(WeeklyVolumeForecast.probability(target: 20_000, state: state, prior: Self.prior))
        #expect(scored[0].pComplete == streak && scored[1].pComplete == weekly)
        #expect(own[0].pComplete == StreakForecast.probability(days: 4, state: state))
        #expect(own[1].pComplete == WeeklyVolumeForecast.probability(target: 20_000, state: state))
        // The prior must matter here, or the checks above could not tell the two apart.
        #expect(abs(streak - (own[0].pComplete ?? streak)) > 0.01)
        #expect(abs(weekly - (own[1].pComplete ?? weekly)) > 0.001)
        // missions.today offers a streak at the probability missions.score gives it.
        let today = try withPrior.today(user: "ana", day: nil, count: 3, now: now)
        let offered = try #require(today.missions.first { $0.spec.kind == .streak }, "\(today.missions.map(\.spec))")
        guard case .streak(let days) = offered.spec else { return }
        #expect(offered.pComplete == StreakForecast.probability(days: days, state: state, prior: Self.prior))
    }
}
