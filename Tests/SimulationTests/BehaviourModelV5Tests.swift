import Testing
import RunusCore
import Tracking
import Missions
@testable import Simulation
#if canImport(Glibc)
import Glibc
#endif

/// The truth of explorer and personal best as docs/simulation.md states it (records 0645,
/// 0646), and simulated attempts that the checks read as they were drawn.
@Suite("BehaviourModel v5 kinds")
struct BehaviourModelV5Tests {
    static let body = Physiology(traits: MissionBoundaryOnSynthesizedTracksTests.traits)
    /// Agreement of the check with the draw each new kind must reach (as for every kind).
    static let minimumAgreement = 0.95

    func logit(_ p: Double) -> Double { log(p / (1 - p)) }

    @Test("explorer pays 1.2 per unit of log(share / 0.3) and 3 per unit of familiarity above 0.3")
    func explorerTerms() {
        let e = Self.body.endurance
        func p(_ f: Double, _ familiarity: Double?) -> Double {
            BehaviourModel.probability(of: .explorer(minNewFraction: f, minDistance: e), state: Self.body, familiarity: familiarity)
        }
        let base = logit(p(0.3, 0.3))
        let fatigue = 1.6 - base   // the load term, the same for every spec of one state
        #expect(fatigue >= -1e-9 && fatigue < 1)
        #expect(abs(logit(p(0.6, 0.3)) - (base - 1.2 * log(2))) < 1e-9)
        #expect(abs(logit(p(0.3, 0.9)) - (base - 3 * 0.6)) < 1e-9)
        // No known ground counts as familiarity 0.
        #expect(abs(logit(p(0.3, nil)) - (base + 3 * 0.3)) < 1e-9)
    }

    @Test("personal best: the pace term of record 0002 with slope 12 against the best effort's pace")
    func personalBestTerms() {
        let d: Meters = 5000
        func p(_ best: Seconds) -> Double {
            BehaviourModel.probability(of: .personalBest(distance: d), state: Self.body, bestEffort: best)
        }
        let allOut = Self.body.racePace(over: d) * d / 1000 / 0.9   // r = 0.9: no pace term
        let slower = allOut * 1.1
        #expect(abs(logit(p(slower)) - logit(p(allOut)) - 12 * log(1.1)) < 1e-9)
        #expect(p(allOut * 0.9) < p(allOut) && p(allOut) < p(slower))
    }

    @Test("simulated explorer and personal-best attempts: the check agrees with the draw, figures per kind")
    func agreement() {
        let configuration = SimulationConfiguration(runners: 16, days: 150, seed: 45)
        let runners = (0..<configuration.runners).map { RunnerSimulator.simulate(runner: $0, configuration: configuration) }
        for kind in [MissionKind.explorer, .personalBest] {
            var agree = 0, total = 0, completed = 0, pSum = 0.0
            var ps: [Double] = []
            for runner in runners {
                for a in runner.assignments where a.kind == kind.rawValue && a.pTrue != nil {
                    total += 1
                    if runner.attempts[a.id] == (a.status == .completed) { agree += 1 }
                    if a.status == .completed { completed += 1 }
                    pSum += a.pTrue ?? 0
                    ps.append(a.pTrue ?? 0)
                }
            }
            print("\(kind.rawValue): \(agree) of \(total) agree; completed \(completed), mean p_true \(pSum / Double(max(1, total))), "
                  + "p_true \(ps.min() ?? 0)…\(ps.max() ?? 0)")
            #expect(total >= 30, "\(kind.rawValue): only \(total) tried")
            #expect(Double(agree) >= Self.minimumAgreement * Double(total), "\(kind.rawValue): \(agree) of \(total) agree")
            // The exploring policy's offers span easy and hard.
            #expect((ps.min() ?? 1) < 0.4 && (ps.max() ?? 0) > 0.85, "\(kind.rawValue): p_true \(ps.min() ?? 0)…\(ps.max() ?? 0)")
        }
        // Familiarity as the engine measures it grows as a runner keeps to the ground near home.
        let late = runners.compactMap { RunDigest.groundFamiliarity($0.digests) }
        #expect(late.count == runners.count)
        print("ground familiarity after 150 days: \(late.min() ?? 0)…\(late.max() ?? 0)")
    }
}
