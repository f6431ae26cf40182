import Testing
import RunusCore
import Tracking
@testable import Missions

/// Record 0658: a run's digest keeps its surges as the fartlek check finds them, so that counting
/// them for any fartlek of the ladder gives the check's own count.
@Suite("run digest surges")
struct RunDigestSurgeTests {
    /// Runs with `count` surges of `surge` seconds at 4:10/km between 5:30/km stretches, and a steady one.
    static let runs: [(name: String, run: MissionRun)] = [("steady", SyntheticRun.run([.run(6000, 330)]))]
        + [(20.0, 6), (25, 4), (30, 8), (45, 5), (61, 12), (95, 3)].map { surge, count in
            ("\(count) × \(surge) s", SyntheticRun.run(SingleRunKindTests.fartlek(surge: surge, count: count)))
        }

    @Test("for every fartlek of the ladder, the digest's count of surges long enough is the check's count")
    func digestCountsAsTheCheck() throws {
        for (name, run) in Self.runs {
            let digest = try #require(RunDigest(run: run))
            let surges = try #require(digest.surges)
            #expect(surges.allSatisfy { $0 >= RunDigest.surgeFloor }, "\(name): \(surges)")
            for n in [4, 6, 8, 10, 12] {
                for seconds in [20.0, 30, 45, 60, 90] {
                    let verdict = MissionEvaluator.evaluate(.fartlek(surges: n, minSurge: seconds), run: run)
                    let counted = try #require(digest.surgeCount(atLeast: seconds))
                    #expect(min(counted, n) == verdict.count?.done, "\(name), \(n) × \(seconds) s: digest \(counted), check \(String(describing: verdict.count))")
                    #expect((counted >= n) == (verdict.status == .completed), "\(name), \(n) × \(seconds) s")
                }
            }
        }
    }
}
