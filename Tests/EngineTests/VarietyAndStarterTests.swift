import Testing
import RunusCore
import Features
import Missions
@testable import Engine

@Suite("TodayPolicy variety (record 0643)")
struct VarietyTests {
    let day = CivilDate(iso: "2026-11-29")!

    @Test("a kind offered on each of the two days before is left out while other kinds fit the band")
    func notThreeDaysInARow() throws {
        let asOf = day.startInstant(utcOffset: 0)
        let state = RunnerState(history: history(user: "u", runs: 20, distance: 8000, pace: 330, end: asOf), asOf: asOf)
        let policy = TodayPolicy(stretchBand: nil)
        let first = policy.choose(state: state, scorer: SyntheticScorer())
        let repeated = Set(first.map(\.spec.kind))
        #expect(repeated.count == 3)
        let again = policy.choose(state: state, scorer: SyntheticScorer(), memory: PolicyMemory(twoDayKinds: repeated))
        #expect(again.count == 3)
        #expect(Set(again.map(\.spec.kind)).isDisjoint(with: repeated))
        #expect(again.allSatisfy { (0.65...0.85).contains($0.pComplete) })
        // When nothing else fits (every kind but the repeated ones already taken), they come last.
        var all = TodayPolicy(count: MissionFeatures.kinds.count, stretchBand: nil)
        all.band = 0.65...0.85
        let everything = all.choose(state: state, scorer: SyntheticScorer(), memory: PolicyMemory(twoDayKinds: repeated))
        let inBand = everything.filter { (0.65...0.85).contains($0.pComplete) }
        let firstRepeated = try #require(inBand.firstIndex { repeated.contains($0.spec.kind) })
        #expect(inBand[firstRepeated...].allSatisfy { repeated.contains($0.spec.kind) })
    }

    @Test("the memory knows which kinds were offered on both of the two days before")
    func memoryOfTwoDays() {
        func offer(_ kind: MissionKind, _ days: Int) -> MissionAssignment {
            MissionAssignment(id: "\(kind)-\(days)", userID: "u", day: day.adding(days: -days), kind: kind.rawValue,
                              specJSON: MissionKind.distance.example.canonicalJSON, modelVersion: "m", pComplete: 0.7, xp: 10,
                              status: .expired, offeredAt: 0)
        }
        let memory = PolicyMemory(offers: [offer(.loop, 1), offer(.loop, 2), offer(.fartlek, 1), offer(.hills, 2),
                                           offer(.pace, 1), offer(.pace, 3)], before: day)
        #expect(memory.twoDayKinds == [.loop])
        #expect(memory.recentKinds[.pace] == 2)
    }

    @Test("over 28 days a runner meets most kinds and never one kind three days in a row")
    func monthOfOffers() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        let start = day.startInstant(utcOffset: 0)
        // Runs at 07:00 UTC, so the clock kinds have a usual hour to work from.
        for run in history(user: "ana", runs: 15, distance: 6000, pace: 360, end: start) {
            var r = run; r.startTime += 7 * 3600; #expect(try store.insertRun(r))
        }
        let service = MissionService(store: store, scorer: SyntheticScorer())
        var byDay: [Set<MissionKind>] = []
        for d in 0..<28 {
            let answer = try service.today(user: "ana", day: day.adding(days: d), count: 3,
                                           now: day.adding(days: d).startInstant(utcOffset: 0) + 8 * 3600)
            // The day's own offers: an offer of an earlier day still open (a weekly volume, a
            // streak) is listed on each of its days, one offer rather than a kind offered again.
            byDay.append(Set(answer.missions.filter { !$0.isStretch && $0.firstDay == day.adding(days: d) }.map(\.spec.kind)))
        }
        let seen = byDay.reduce(into: Set<MissionKind>()) { $0.formUnion($1) }
        #expect(seen.count >= 12, "kinds seen: \(seen.map(\.rawValue).sorted())")
        for d in 2..<byDay.count {
            #expect(byDay[d].intersection(byDay[d - 1]).intersection(byDay[d - 2]).isEmpty, "day \(d): \(byDay[d])")
        }
    }
}

@Suite("StarterMissions in the band (record 0644)")
struct StarterInBandTests {
    @Test("starter missions sit in the target band by the model's estimate, within the cap; one why each")
    func inBand() throws {
        let state = RunnerState(history: [], asOf: CivilDate(iso: "2026-11-29")!.startInstant(utcOffset: 0))
        let young = UserProfile(id: "a", birthYear: 2000, sex: "m", heightCm: 180, weightKg: 72)
        let chosen = StarterMissions.choose(profile: young, year: 2026, count: 3, state: state, scorer: SyntheticScorer())
        #expect(chosen.count == 3)
        #expect(chosen.allSatisfy { (0.65...0.85).contains($0.pComplete) }, "\(chosen.map(\.pComplete))")
        // Easiest first, distinct kinds, distinct sentences naming the target and the profile.
        #expect(zip(chosen, chosen.dropFirst()).allSatisfy { $0.pComplete >= $1.pComplete })
        #expect(Set(chosen.map(\.spec.kind)).count == 3)
        #expect(Set(chosen.map(\.why)).count == 3)
        #expect(chosen.allSatisfy { $0.why.contains("age 26") })
        for m in chosen {
            if case .distance(let d) = m.spec { #expect(m.why.contains(DistanceFormat.kilometres(d))) }
            if case .duration(let t) = m.spec { #expect(m.why.contains(DistanceFormat.duration(t))) }
        }
        // An older, heavier runner's ladder stops at twice the comfortable 1.5 km: where the model
        // would want more, the starter stays at the cap (above the band, never beyond the cap).
        let older = UserProfile(id: "b", birthYear: 1955, sex: "f", heightCm: 160, weightKg: 85)
        let capped = StarterMissions.choose(profile: older, year: 2026, count: 4, state: state, scorer: SyntheticScorer())
        for m in capped {
            if case .distance(let d) = m.spec { #expect(d <= 2 * 1500) }
            if case .duration(let t) = m.spec {
                let e = StarterMissions.estimate(older, year: 2026)
                #expect(t <= (e.distance * e.easyPace / 1000 * StarterMissions.maxMultiple / 300).rounded() * 300 + 1)
            }
            // Out of the band only when no rung of its kind's ladder is in it.
            if !(0.65...0.85).contains(m.pComplete) {
                let rungs = try #require(StarterMissions.ladder(older, year: 2026).first { $0.first?.kind == m.spec.kind })
                let p = SyntheticScorer().probabilities(rungs.map { MissionFeatures.vector($0, state: state) })
                #expect(!p.contains { (0.65...0.85).contains($0) }, "\(m.spec.canonicalJSON)")
            }
        }
        // A stored offer's sentence is rebuilt from the spec and profile: the same text.
        for m in chosen { #expect(StarterMissions.why(m.spec, profile: young, year: 2026) == m.why) }
    }
}
