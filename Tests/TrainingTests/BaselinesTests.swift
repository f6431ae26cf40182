import Testing
import Foundation
import RunusCore
import Missions
import Training

@Suite("baselines")
struct BaselinesTests {
    @Test("the Riegel margin compares the allowed time with T1·(D2/D1)^1.06 from the best recent run")
    func riegelMargin() {
        let t0 = 1_800_000_000.0
        let runs = [RunRecord(id: "a", userID: "u", startTime: t0 - 86_400, distance: 5000, elapsed: 1600, moving: 1500, elevationGain: 0, source: "t"),
                    RunRecord(id: "b", userID: "u", startTime: t0 - 2 * 86_400, distance: 10_000, elapsed: 3300, moving: 3200, elevationGain: 0, source: "t"),
                    RunRecord(id: "old", userID: "u", startTime: t0 - 200 * 86_400, distance: 10_000, elapsed: 2000, moving: 2000, elevationGain: 0, source: "t")]
        let needed = min(1500 * pow(2, 1.06), 3200.0)   // the 5 km run predicts 10 km better; the old run is outside 90 days
        let margin = Baselines.riegelMargin(.distanceInTime(distance: 10_000, maxDuration: 3000), history: runs, asOf: t0)
        #expect(abs(margin - log(3000 / needed)) < 1e-12)
        #expect(abs(Baselines.riegelMargin(.distance(minDistance: 12_000), history: runs, asOf: t0) - log(10_000.0 / 12_000)) < 1e-12)
        #expect(Baselines.riegelMargin(.distance(minDistance: 12_000), history: [], asOf: t0) == 0)
    }
}
