import Testing
import RunusCore
import Tracking
@testable import Missions

/// The longest chain of interval reps (record 0217): against exhaustive search on small
/// profiles, on the session the greedy search of record 0211 lost reps on, and on garbage.
@Suite("interval rep chains")
struct RepChainTests {
    /// Metres a rep's edge may sit off an effort's edge through floating-point sums of 1 s steps.
    static let metreTolerance = 1e-3
    /// A profile sampled every second from legs of (metres, s/km); a pace of .infinity stands still.
    static func profile(_ legs: [(Meters, SecondsPerKm)]) -> (d: [Meters], t: [EpochSeconds]) {
        var d: [Meters] = [0], t: [EpochSeconds] = [0]
        for (metres, pace) in legs {
            if pace.isInfinite {
                for _ in 0..<Int(metres) { d.append(d.last!); t.append(t.last! + 1) }
                continue
            }
            var left = metres
            while left > 1e-9 {
                let step = min(left, 1000 / pace)
                d.append(d.last! + step); t.append(t.last! + step * pace / 1000); left -= step
            }
        }
        return (d, t)
    }

    /// Every subset of the qualifying windows, for profiles of a dozen fixes: the longest valid chain.
    static func exhaustive(_ d: [Meters], _ t: [EpochSeconds], length: Meters, limit: Seconds, maxRest: Seconds) -> Int {
        let n = d.count
        var windows: [(from: Meters, start: EpochSeconds, end: EpochSeconds)] = []
        for i in 0..<n where d[i] + length <= d[n - 1] {
            let target = d[i] + length
            var j = i + 1
            while d[j] < target { j += 1 }
            let span = d[j] - d[j - 1]
            let end = span <= 0 ? t[j - 1] : t[j - 1] + (t[j] - t[j - 1]) * (target - d[j - 1]) / span
            if end - t[i] <= limit { windows.append((d[i], t[i], end)) }
        }
        var best = 0
        for mask in 0..<(1 << windows.count) {
            let chosen = windows.indices.filter { mask & (1 << $0) != 0 }
            guard chosen.count > best else { continue }
            let valid = zip(chosen, chosen.dropFirst()).allSatisfy { a, b in
                windows[b].from >= windows[a].from + length && windows[b].start - windows[a].end <= maxRest
            }
            if valid { best = chosen.count }
        }
        return best
    }

    /// Reps as the check must read them: each within the limit, in order, apart, rests within bounds.
    static func expectValid(_ chain: RepChain.Result, length: Meters, limit: Seconds, maxRest: Seconds,
                            tolerance: Double = 1e-9, _ note: String) {
        for rep in chain.reps {
            #expect(rep.duration <= limit + tolerance, "\(note): rep \(rep) over \(limit) s")
            #expect(abs(rep.to - rep.from - length) <= tolerance, "\(note): rep \(rep) not \(length) m")
        }
        for (a, b) in zip(chain.reps, chain.reps.dropFirst()) {
            #expect(b.from >= a.to - tolerance, "\(note): reps overlap \(a) \(b)")
            #expect(b.start - a.end <= maxRest + tolerance && b.start >= a.end, "\(note): rest \(b.start - a.end) s")
        }
    }

    @Test("on 400 random profiles of 8–12 fixes the chain is as long as exhaustive search finds, and valid")
    func matchesExhaustiveSearch() {
        var rng = SeededGenerator(seed: 217)
        for trial in 0..<400 {
            let n = 8 + Int(rng.next() % 5)
            var d: [Meters] = [0], t: [EpochSeconds] = [0]
            for _ in 1..<n {
                // Steps of 0–30 m (0: standing still) in 1–20 s.
                let step = rng.uniform() < 0.15 ? 0 : rng.uniform(1, 30)
                d.append(d.last! + step); t.append(t.last! + rng.uniform(1, 20))
            }
            let length = rng.uniform(10, 60), limit = rng.uniform(5, 40), maxRest = rng.uniform(0, 30)
            let cap = 1 + Int(rng.next() % 6)
            let chain = RepChain.longest(distances: d, times: t, length: length, limit: limit, maxRest: maxRest, cap: cap)
            let longest = Self.exhaustive(d, t, length: length, limit: limit, maxRest: maxRest)
            #expect(chain.reps.count == min(cap, longest), "trial \(trial): \(chain.reps.count) reps, exhaustive \(longest), cap \(cap)")
            Self.expectValid(chain, length: length, limit: limit, maxRest: maxRest, "trial \(trial)")
            if chain.reps.count < cap, let rest = chain.restBeyondLimit {
                #expect(rest > maxRest, "trial \(trial): a rep \(rest) s away would have joined the chain")
            }
        }
    }

    /// 13 reps of 826 m, alternately at 6:56 and 6:38/km, with 40 m jogs at 9:19/km: asked 12 × 800 m
    /// at 7:13/km with 60 s rests. A window from the end of a slower rep across the jog into a
    /// faster one is quicker than the slower rep alone; the greedy search of record 0211 kept it,
    /// lost the next rep and broke the chain on a simulated runner's success (record 0217).
    @Test("reps of uneven pace with short jogs: every rep is found, each on its own effort")
    func unevenRepsWithShortJogs() {
        var legs: [(Meters, SecondsPerKm)] = [(1000, 470)]
        for k in 0..<13 {
            if k > 0 { legs.append((40, 559)) }
            legs.append((826, k % 2 == 0 ? 416 : 398))
        }
        legs.append((800, 559))
        let (d, t) = Self.profile(legs)
        let length = 800 * 0.99, limit = (433 + 1) * length / 1000, maxRest = 66.0
        let chain = RepChain.longest(distances: d, times: t, length: length, limit: limit, maxRest: maxRest, cap: 12)
        #expect(chain.reps.count == 12)
        #expect(chain.restBeyondLimit == nil)
        Self.expectValid(chain, length: length, limit: limit, maxRest: maxRest, "uneven reps")
        // Each rep lies inside one effort of 826 m: efforts start at 1000 + k · 866 m.
        for rep in chain.reps {
            let k = ((rep.from - 1000 + Self.metreTolerance) / 866).rounded(.down)
            let effort = 1000 + k * 866
            #expect(rep.from >= effort - Self.metreTolerance && rep.to <= effort + 826 + Self.metreTolerance, "rep \(rep.from)–\(rep.to) m straddles a jog")
        }
    }

    @Test("a rest over the limit splits the chain; the nearest rep outside it is the rest reported")
    func restBeyondLimit() throws {
        // Two reps 20 s apart, then 300 s standing, then one rep: 2 of 3. The third rep's window
        // may start up to 100 − 95 s before the runner moves off (its time to spare), so the rest
        // reads 295–301 s.
        let (d, t) = Self.profile([(400, 240), (50, 400), (400, 240), (300, .infinity), (400, 240)])
        let chain = RepChain.longest(distances: d, times: t, length: 396, limit: 100, maxRest: 90, cap: 3)
        #expect(chain.reps.count == 2)
        let rest = try #require(chain.restBeyondLimit)
        #expect((295...301).contains(rest), "rest \(rest) s, 295–301 s expected")
        #expect(RepChain.longest(distances: d, times: t, length: 396, limit: 100, maxRest: 400, cap: 3).reps.count == 3)
    }

    @Test("garbage in (empty, NaN, infinities, unsorted, negative settings) gives reps or none, never a trap")
    func garbage() {
        var rng = SeededGenerator(seed: 2170)
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -1, 1e300, -0.0, .leastNonzeroMagnitude]
        func value() -> Double { rng.uniform() < 0.2 ? specials[Int(rng.next() % UInt64(specials.count))] : rng.uniform(-50, 500) }
        for _ in 0..<2000 {
            let n = Int(rng.next() % 12)
            let d = (0..<n).map { _ in value() }, t = (0..<Int(rng.next() % 12)).map { _ in value() }
            let chain = RepChain.longest(distances: d, times: t, length: value(), limit: value(), maxRest: value(),
                                         cap: Int(rng.next() % 5) - 1)
            #expect(chain.reps.count <= 4)
        }
    }
}
