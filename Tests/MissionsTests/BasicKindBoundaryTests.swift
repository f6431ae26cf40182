import Testing
import RunusCore
import Tracking
@testable import Missions

/// The five basic kinds just inside and just outside their tolerance boundaries (records 0201
/// and 0211): the cases `MissionEvaluatorTests` checks only with wide margins. Synthetic 1 Hz
/// tracks are exact up to the local-distance approximation (< 1e-5 relative, record 0100), so a
/// margin of 0.05 % on either side of a boundary is decided by the rule, not by the geometry.
@Suite("Basic mission kinds at their boundaries")
struct BasicKindBoundaryTests {
    func status(_ spec: MissionSpec, _ legs: [(Meters, SecondsPerKm)]) -> MissionStatusResult {
        MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics(legs)).status
    }

    @Test("distance: 4951 m passes 5 km (4950 m accepted, 99 %), 4949 m fails")
    func distance() {
        let spec = MissionSpec.distance(minDistance: 5000)
        #expect(status(spec, [(4951, 330)]) == .completed)
        #expect(status(spec, [(4949, 330)]) == .failed)
    }

    @Test("duration: 29:44 of moving time passes 30 min (29:42 accepted), 29:40 fails")
    func duration() {
        let spec = MissionSpec.duration(minDuration: 1800)
        // At 300 s/km, moving seconds = 0.3 × metres.
        #expect(status(spec, [(1784 / 0.3, 300)]) == .completed)
        #expect(status(spec, [(1780 / 0.3, 300)]) == .failed)
    }

    @Test("pace: 5:30.8/km passes 5:30 (+1 s/km), 5:31.2 fails")
    func pace() {
        let spec = MissionSpec.pace(maxPace: 330, minDistance: 5000)
        #expect(status(spec, [(5000, 330.8)]) == .completed)
        #expect(status(spec, [(5000, 331.2)]) == .failed)
        // Long enough only within the distance tolerance: 4951 m passes, 4949 m fails.
        #expect(status(spec, [(4951, 320)]) == .completed)
        #expect(status(spec, [(4949, 320)]) == .failed)
    }

    @Test("negative split: a second half 1 s faster passes, 1 s slower or equal fails (strict, record 0201)")
    func negativeSplit() {
        let spec = MissionSpec.negativeSplit(minDistance: 5000)
        // 2500 m halves: 1 s over 2.5 km is 0.4 s/km.
        #expect(status(spec, [(2500, 300), (2500, 299.6)]) == .completed)
        #expect(status(spec, [(2500, 300), (2500, 300.4)]) == .failed)
        #expect(status(spec, [(5000, 300)]) == .failed)
        // Faster second half but 2 m short of the 4950 m accepted.
        #expect(status(spec, [(2474, 300), (2474, 290)]) == .failed)
    }

    @Test("distance in time: fastest 4950 m in 27:34 passes 27:30 (+5 s over 5 km), in 27:36 fails")
    func distanceInTime() {
        let spec = MissionSpec.distanceInTime(distance: 5000, maxDuration: 1650)
        // Limit 1655 s for the accepted 4950 m: 1654 s is 334.14 s/km, 1656 s is 334.55 s/km.
        #expect(status(spec, [(5000, 1654 / 4.95)]) == .completed)
        #expect(status(spec, [(5000, 1656 / 4.95)]) == .failed)
    }
}
