import Testing
import Foundation
import RunusCore
@testable import Features

/// Record 0668: a `SchedulePrior` shrinks each class's share toward the pooled share before each
/// weekday's share is shrunk toward its class; without one (or with weight 0) the forecasts are
/// bit for bit what they were.
@Suite("streak forecast: schedule prior")
struct SchedulePriorForecastTests {
    static let tolerance = 1e-12
    static let prior = try! SchedulePrior(usualShare: 0.85, otherShare: 0.08, weightDays: 32)

    /// Runs on Mondays, Wednesdays and Fridays of the last six weeks, one Sunday, and today.
    static func state() -> RunnerState {
        let today = StreakForecastChainTests.today  // a Tuesday
        let back = (1...42).filter { b in
            let weekday = today.adding(days: -b).isoWeekday
            return weekday == 1 || weekday == 3 || weekday == 5 || b == 9
        }
        return StreakForecastChainTests.state(runDaysBack: back + [0])
    }

    @Test("prior none, or any prior of weight 0, gives the same shares bit for bit, for every break rule")
    func noneIsIdentity() throws {
        let state = Self.state()
        let zero = try SchedulePrior(usualShare: 0.3, otherShare: 0.9, weightDays: 0)
        for breaks in [BreakRule.inactiveWeeks, .gap(days: 10), StreakForecast.breakRule] {
            let plain = StreakForecast.schedule(state, breaks: breaks)
            #expect(StreakForecast.schedule(state, breaks: breaks, prior: .none) == plain)
            #expect(StreakForecast.schedule(state, breaks: breaks, prior: zero) == plain)
            #expect(plain.shares.contains { $0 > 0.5 } && plain.shares.contains { $0 < 0.5 })
        }
    }

    @Test("each weekday's share is the two-level shrinkage, counted by hand")
    func againstHandCount() throws {
        let state = Self.state()
        let span = StreakForecast.daysKnown(state)
        // Every week of the record has a run, so under .inactiveWeeks every day counts; no recency.
        var ran = [Double](repeating: 0, count: 7), seen = [Double](repeating: 0, count: 7)
        for b in 1...span {
            let r = ((-b % 7) + 7) % 7
            seen[r] += 1
            if state.runDaysBack[b] { ran[r] += 1 }
        }
        let usual = (0..<7).map { seen[$0] > 0 && ran[$0] / seen[$0] >= StreakForecast.usualShare }
        let got = StreakForecast.schedule(state, weight: 16, halfLifeWeeks: nil, breaks: .inactiveWeeks, prior: Self.prior).shares
        for r in 0..<7 {
            let mates = (0..<7).filter { seen[$0] > 0 && usual[$0] == usual[r] }
            let classRan = mates.map { ran[$0] }.reduce(0, +), classSeen = mates.map { seen[$0] }.reduce(0, +)
            let pooled = usual[r] ? Self.prior.usualShare : Self.prior.otherShare
            let classShare = (classRan + 32 * pooled) / (classSeen + 32)
            let want = (ran[r] + 16 * classShare) / (seen[r] + 16)
            #expect(abs(got[r] - want) < Self.tolerance, "weekday \(r): \(got[r]) vs \(want)")
        }
    }

    @Test("a heavier prior moves every share monotonically toward what the pooled shares alone give")
    func monotoneInWeight() throws {
        let state = Self.state()
        let own = StreakForecast.schedule(state).shares
        let limit = StreakForecast.schedule(state, prior: try SchedulePrior(usualShare: 0.85, otherShare: 0.08,
                                                                            weightDays: SchedulePrior.maximumWeight)).shares
        var last = own
        for w in [1.0, 4, 16, 64, 256] {
            let shares = StreakForecast.schedule(state, prior: try SchedulePrior(usualShare: 0.85, otherShare: 0.08, weightDays: w)).shares
            for r in 0..<7 {
                let toward = limit[r] - own[r]
                #expect((shares[r] - last[r]) * toward >= -Self.tolerance, "weekday \(r) at weight \(w)")
                #expect(abs(shares[r] - own[r]) <= abs(toward) + Self.tolerance)
            }
            last = shares
        }
        #expect(zip(own, limit).contains { abs($0 - $1) > 0.02 }, "the prior must move some share")
    }

    @Test("the prior refuses values it cannot serve, naming the field", arguments: [
        (Double.nan, 0.1, 8.0, "usual_share"), (0.8, -0.01, 8, "other_share"), (0.8, 0.1, -1, "weight_days"),
        (1.01, 0.1, 8, "usual_share"), (0.8, .infinity, 8, "other_share"), (0.8, 0.1, SchedulePrior.maximumWeight * 2, "weight_days"),
    ])
    func refusals(usual: Double, other: Double, weight: Double, field: String) {
        do {
            _ = try SchedulePrior(usualShare: usual, otherShare: other, weightDays: weight)
            Issue.record("accepted \(usual), \(other), \(weight)")
        } catch let error as SchedulePrior.Invalid {
            #expect(error.field == field)
            #expect(error.description.contains(field))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("seeded fuzz: any valid prior on any record gives shares and streak chances in [0, 1], weekly chances too")
    func fuzz() throws {
        var rng = SeededGenerator(seed: 668)
        for _ in 0..<300 {
            let back = (1...84).filter { _ in rng.uniform() < rng.uniform() }
            let state = StreakForecastChainTests.state(runDaysBack: back + [0])
            let prior = try SchedulePrior(usualShare: rng.uniform(), otherShare: rng.uniform(),
                                          weightDays: rng.uniform() * SchedulePrior.maximumWeight)
            let schedule = StreakForecast.schedule(state, prior: prior)
            #expect(schedule.shares.allSatisfy { $0.isFinite && (0...1).contains($0) })
            for days in 2...14 {
                let p = StreakForecast.probability(days: days, state: state, prior: prior)
                #expect(p.isFinite && (0...1).contains(p))
            }
            #expect(WeeklyVolumeForecast.dayChances(state, prior: prior).allSatisfy { (0...1).contains($0) })
        }
    }
}
