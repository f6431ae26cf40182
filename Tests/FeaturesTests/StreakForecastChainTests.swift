import Testing
import Foundation
import RunusCore
@testable import Features

/// Record 0660: the two-state chain that leaves breaks out of the streak forecast's weekday
/// shares, against a brute-force oracle, on a constructed break, and against hostile settings.
@Suite("streak forecast: break chain")
struct StreakForecastChainTests {
    static let tolerance = 1e-12
    /// A Tuesday.
    static let today = CivilDate(iso: "2026-12-01")!

    /// A state as of `today`'s start with a run on each day `back` days before it (0: today).
    static func state(runDaysBack: [Int]) -> RunnerState {
        let runs = runDaysBack.map { back in
            let day = today.adding(days: -back)
            return RunRecord(id: "r\(back)", userID: "u", startTime: day.startInstant(utcOffset: 0) + 7 * 3600,
                             distance: 6000, elapsed: 2160, moving: 2160, elevationGain: 0, source: "test")
        }
        return RunnerState(history: runs, asOf: today.startInstant(utcOffset: 0))
    }

    /// P(active on day b) by summing every path of states from the oldest day to today (active).
    static func oracle(_ state: RunnerState, span: Int, shares: [Double], start: Double, end: Double) -> [Double] {
        let n = span
        func emission(_ b: Int, active: Bool) -> Double {
            if b == 0 { return active ? 1 : 0 }
            let q = min(StreakForecast.emissionBounds.upperBound, max(StreakForecast.emissionBounds.lowerBound, shares[((-b % 7) + 7) % 7]))
            if state.runDaysBack[b] { return active ? q : 0 }
            return active ? 1 - q : 1
        }
        func transition(_ from: Bool, _ to: Bool) -> Double {
            from ? (to ? 1 - start : start) : (to ? end : 1 - end)
        }
        var activeMass = [Double](repeating: 0, count: n + 1), total = 0.0
        for mask in 0..<(1 << (n + 1)) {
            // Bit b: active on day b back.
            func active(_ b: Int) -> Bool { mask & (1 << b) != 0 }
            var p = (active(n) ? end : start) / (start + end) * emission(n, active: active(n))
            for b in stride(from: n - 1, through: 0, by: -1) {
                p *= transition(active(b + 1), active(b)) * emission(b, active: active(b))
            }
            total += p
            for b in 0...n where active(b) { activeMass[b] += p }
        }
        return activeMass.map { $0 / total }
    }

    @Test("the forward–backward chances of being active equal the sum over every path of states")
    func againstEnumeration() throws {
        // Runs 13, 12, 10, 9, 7 and 2 days back and today: 13 days of record.
        let state = Self.state(runDaysBack: [13, 12, 10, 9, 7, 2, 0])
        let span = StreakForecast.daysKnown(state)
        #expect(span == 13)
        // Shares at both bounds and between them.
        for shares in [[0.9, 0.2, 0.5, 1.0, 0.0, 0.7, 0.3], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]] {
            for (start, mean) in [(0.02, 7.0), (0.3, 2.0), (1e-6, 365.0), (0.5, 1.0)] {
                let got = StreakForecast.activeChances(state, span: span, shares: shares, startChance: start, meanDays: mean)
                let want = Self.oracle(state, span: span, shares: shares, start: start, end: 1 / mean)
                #expect(got.count == span + 1)
                for b in 0...span {
                    #expect(abs(got[b] - want[b]) < 1e-9, "b \(b), shares \(shares), chain \(start), \(mean): \(got[b]) vs \(want[b])")
                }
                // Run days and today are active for sure.
                for b in 0...span where state.runDaysBack[b] { #expect(abs(got[b] - 1) < Self.tolerance) }
            }
        }
    }

    @Test("a fortnight off leaves the runner's usual days near the share of the weeks run, where inactive weeks count the break's part-weeks as missed")
    func breakLeftOut() {
        // Monday to Thursday of every week for 12 weeks, but for days 30 … 43 back (a break of
        // 14 days that starts and ends inside weeks that have runs).
        let back = (1...84).filter { b in
            let weekday = Self.today.adding(days: -b).isoWeekday
            return weekday <= 4 && !(30...43).contains(b)
        }
        let state = Self.state(runDaysBack: back + [0])
        let chain = StreakForecast.schedule(state, breaks: .chain(startChance: 0.02, meanDays: 7))
        let weeks = StreakForecast.schedule(state, breaks: .inactiveWeeks)
        // Wednesday is 1 day after today (a Tuesday); Friday 3 days.
        let wednesday = chain.share(ahead: 1), friday = chain.share(ahead: 3)
        #expect(wednesday > 0.97, "\(wednesday)")
        #expect(wednesday > weeks.share(ahead: 1) + 0.03, "chain \(wednesday), weeks \(weeks.share(ahead: 1))")
        #expect(friday < 0.02, "\(friday)")
        // The days from its first missed Monday (43 back) to its last missed Thursday (33) are read
        // as a break; an ordinary weekend as active. (The weekend after that Thursday, 30 … 32,
        // may have been either.)
        let chances = StreakForecast.activeChances(state, span: StreakForecast.daysKnown(state), shares: chain.shares,
                                                   startChance: 0.02, meanDays: 7)
        for b in 33...43 { #expect(chances[b] < 0.05, "day \(b) back: \(chances[b])") }
        for b in 3...5 { #expect(chances[b] > 0.95, "day \(b) back: \(chances[b])") }
        // A streak's needed days each stay active: Wednesday then Thursday.
        let stay = 1 - 0.02
        #expect(abs(chain.streakChance(needed: 2) - stay * wednesday * stay * chain.share(ahead: 2)) < Self.tolerance)
    }

    @Test("a chain's transitions and stay chance; settings outside the bounds are kept within them")
    func transitions() {
        for (start, mean) in [(0.02, 7.0), (0.3, 2.0), (0.5, 1.0)] {
            let rule = BreakRule.chain(startChance: start, meanDays: mean)
            #expect(rule.transitions.map { $0.start == start && abs($0.end - 1 / mean) < Self.tolerance } == true)
            #expect(abs(rule.stayChance - (1 - start)) < Self.tolerance)
        }
        for rule in [BreakRule.inactiveWeeks, .gap(days: 10)] {
            #expect(rule.stayChance == 1 && rule.transitions == nil)
        }
        // Settings outside the bounds (only code can make them) are kept within them.
        let wild = BreakRule.chain(startChance: .nan, meanDays: -3)
        #expect(wild.transitions.map { $0.start == BreakRule.startChances.lowerBound && $0.end == 1 } == true)
        #expect(BreakRule.chain(startChance: 7, meanDays: .infinity).stayChance == 0.5)
    }

    @Test("break rules read back what they print; every other form is refused")
    func parsing() {
        for rule in [BreakRule.inactiveWeeks, .gap(days: 2), .gap(days: 84), .chain(startChance: 0.02, meanDays: 7),
                     .chain(startChance: 0.5, meanDays: 365), .chain(startChance: 1e-6, meanDays: 1)] {
            #expect(BreakRule(parsing: Substring(rule.description)) == rule, "\(rule)")
        }
        for text in ["", "weeks:", "week", "gap", "gap:1", "gap:85", "gap:7.5", "gap:-3", "chain", "chain:0.02", "chain:0:7",
                     "chain:0.51:7", "chain:nan:7", "chain:0.02:0.5", "chain:0.02:366", "chain:0.02:inf", "chain:0.02:7:1",
                     "chain:0.02:7 ", "GAP:10", "gap:10:"] {
            #expect(BreakRule(parsing: Substring(text)) == nil, "'\(text)'")
        }
        // Random text from the rules' alphabet: never a trap; whatever parses prints back as itself.
        var rng = SeededGenerator(seed: 661)
        let alphabet = Array("weksgapchin:0123456789.-+eE,x nanif")
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 0...16, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            if let rule = BreakRule(parsing: Substring(text)) {
                #expect(BreakRule(parsing: Substring(rule.description)) == rule, "'\(text)' → \(rule)")
                #expect((0...1).contains(rule.stayChance), "'\(text)'")
            }
        }
    }

    @Test("random records and chains give chances in [0, 1], and the same answer twice")
    func fuzz() {
        var rng = SeededGenerator(seed: 660)
        for _ in 0..<300 {
            let density = Double.random(in: 0...1, using: &rng)
            let back = (1...84).filter { _ in Double.random(in: 0...1, using: &rng) < density }
            let state = Self.state(runDaysBack: back + [0])
            let rule = BreakRule.chain(startChance: Double.random(in: BreakRule.startChances, using: &rng),
                                       meanDays: Double.random(in: BreakRule.meanLengths, using: &rng))
            let schedule = StreakForecast.schedule(state, weight: Double.random(in: 0.5...64, using: &rng), breaks: rule)
            #expect(schedule.shares.count == 7 && schedule.shares.allSatisfy { (0...1).contains($0) }, "\(rule): \(schedule.shares)")
            for k in 1...14 {
                let run = schedule.runChance(ahead: k), streak = schedule.streakChance(needed: k)
                #expect((0...1).contains(run) && (0...1).contains(streak), "\(rule) k \(k): \(run), \(streak)")
            }
            let chances = StreakForecast.activeChances(state, span: StreakForecast.daysKnown(state), shares: schedule.shares,
                                                       startChance: 0.02, meanDays: 7)
            #expect(chances.allSatisfy { (0...1).contains($0) })
            #expect(StreakForecast.schedule(state, breaks: rule) == StreakForecast.schedule(state, breaks: rule))
        }
    }
}
