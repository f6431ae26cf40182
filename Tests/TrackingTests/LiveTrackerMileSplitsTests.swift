import Testing
import RunusCore
@testable import Tracking

/// Mile splits in the live snapshot (record 0161): equal to `RunMetrics.mileSplits` bit for bit
/// at every checked prefix, through the replayed and the optimistic snapshot. No tolerance: the
/// splits are sums of the same terms in the same order as batch (see `LiveTrackerTests`).
@Suite("Live tracker mile splits")
struct LiveTrackerMileSplitsTests {
    /// A 45-minute run with a stop and a walk (about 5 miles), checked every 17th prefix and
    /// around each mile; the last snapshot has 4 whole miles and a partial fifth.
    @Test("mile splits equal batch at every checked prefix, replayed and optimistic")
    func mileSplits() {
        var b = TrackBuilder()
        b.run(speed: 3.3, seconds: 1500)
        b.run(speed: 0, seconds: 90)
        b.run(speed: 1.4, seconds: 240)
        b.run(speed: 3.0, seconds: 900)
        let points = b.points
        var checks = Set(stride(from: 1, through: points.count, by: 17)).union([points.count])
        // Prefixes around whole miles (the split's 1 mm rounding rule).
        var distance: Meters = 0
        for i in 1..<points.count {
            let before = distance
            distance += Track.speed(points[i - 1], points[i]) * (points[i].time - points[i - 1].time)
            if Int(distance / RunMetrics.mile) > Int(before / RunMetrics.mile) {
                checks.formUnion(max(1, i - 8)...min(points.count, i + 12))
            }
        }
        let ordered = checks.sorted()
        let replayed = LiveTrackerTests.compare(points, at: ordered, label: "mile run")
        #expect(replayed.failures == 0)
        let optimistic = LiveTrackerOptimisticTests.compare(points, at: ordered, label: "mile run (optimistic)")
        #expect(optimistic.failures == 0 && optimistic.served > 0)
        var live = LiveTracker()
        live.append(contentsOf: points)
        let snapshot = live.snapshot()
        let miles = snapshot.mileSplits
        #expect(miles.count == 5 && miles.dropLast().allSatisfy { $0.distance == RunMetrics.mile }
                && miles.last!.distance < RunMetrics.mile, "mile splits \(miles) of \(snapshot.distance) m")
    }
}
