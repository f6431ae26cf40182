import Foundation
import Testing
import RunusCore
import Tracking
import Missions

/// Not a test: `make bench-missions` runs it in a release build. Time to check each kind's
/// default mission against a one-hour 1 Hz track (metrics already computed, as after a run or
/// per live update), against the peer measured in the same run on the same track: computing the
/// metrics themselves (`MissionRun(track:)`). Warm-up, then the median of 9 rounds.
@Suite("Missions benchmark", .enabled(if: ProcessInfo.processInfo.environment["RUNUS_BENCH_MISSIONS"] == "1",
                                      "set RUNUS_BENCH_MISSIONS=1 (make bench-missions)"))
struct MissionsBenchmark {
    /// One hour at 1 Hz: warm-up, 8 × 400 m reps, surges, a climb, easy finish (≈ 3,600 fixes).
    static func hourTrack() -> Track {
        var legs: [SyntheticRun.Leg] = [.run(2000, 360)]
        for _ in 0..<8 { legs += [.run(400, 260), .run(200, 420, bearing: 120)] }
        for _ in 0..<6 { legs += [.run(150, 250, bearing: 200), .run(400, 340, bearing: 200, grade: 0.02)] }
        legs += [.run(1600, 350, bearing: 300)]
        var track = SyntheticRun.track(legs)
        let extra = 3600 - track.points.count
        if extra > 0 { track = SyntheticRun.track(legs + [.run(Double(extra) * 1000 / 350, 350, bearing: 10)]) }
        return track
    }

    static func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    @Test("check time per kind on a one-hour 1 Hz track")
    func bench() {
        let track = Self.hourTrack()
        let clock = ContinuousClock()
        let rounds = 9, inner = 200
        var metricsTimes: [Double] = []
        var run = MissionRun(track: track)
        for _ in 0..<rounds {
            let t = clock.measure { for _ in 0..<20 { run = MissionRun(track: track) } }
            metricsTimes.append(Self.seconds(t) / 20)
        }
        let peer = Self.median(metricsTimes)
        let start = run.metrics.startTime
        let context = MissionContext(
            priorRuns: (1...60).map { PriorRun(start: start - Double($0) * 86_400, utcOffset: 3600, distance: 8000,
                                               bestEfforts: [5000: 1700]) },
            visitedCells: ExplorerGrid.cells(of: MissionRun(track: SyntheticRun.track([.run(8000, 330, bearing: 30)]))),
            utcOffset: 3600, race: RaceResult(distance: 10_000, finished: true, place: 2, participants: 8))
        print("track: \(track.points.count) fixes, \(Int(run.metrics.distance)) m, \(Int(run.metrics.elapsed)) s")
        print("peer (MissionRun(track:): clean, metrics, positions): \(String(format: "%.1f", peer * 1e6)) µs")
        print("| kind | check µs (median) | check / metrics |")
        print("|---|---|---|")
        for kind in MissionKind.allCases {
            let spec = kind.example
            var sink = 0.0
            for _ in 0..<20 { sink += MissionEvaluator.evaluate(spec, run: run, context: context).progress }   // warm-up
            var times: [Double] = []
            for _ in 0..<rounds {
                let t = clock.measure {
                    for _ in 0..<inner { sink += MissionEvaluator.evaluate(spec, run: run, context: context).progress }
                }
                times.append(Self.seconds(t) / Double(inner))
            }
            let m = Self.median(times)
            print("| \(kind.rawValue) | \(String(format: "%.1f", m * 1e6)) | \(String(format: "%.3f", m / peer)) |\(sink < 0 ? " " : "")")
            #expect(m < 1e-3, "\(kind.rawValue): \(m * 1e6) µs")
        }
    }
}
