import Testing
import RunusCore
@testable import Missions

/// `MissionSpec.paceNeeded` (record 0535): the pace over the rest of the target that makes it.
@Suite("pace needed")
struct PaceNeededTests {
    @Test("pace: the moving time left in the target over the distance left")
    func pace() throws {
        let spec = MissionSpec.pace(maxPace: 330, minDistance: 5000)
        #expect(spec.paceNeeded(distance: 0, moving: 0, elapsed: 0) == PaceNeeded(remaining: 5000, pace: 330, time: .moving))
        // 2 km in 700 s of moving time (5:50/km): 950 s left for 3 km.
        let behind = try #require(spec.paceNeeded(distance: 2000, moving: 700, elapsed: 760))
        #expect(behind.remaining == 3000 && behind.time == .moving && abs((behind.pace ?? 0) - 950.0 / 3) < 1e-9)
        // The whole allowance spent with distance to go: no pace makes it.
        #expect(spec.paceNeeded(distance: 4000, moving: 1700, elapsed: 1700) == PaceNeeded(remaining: 1000, pace: nil, time: .moving))
        // The distance covered: nothing left to pace.
        #expect(spec.paceNeeded(distance: 5000, moving: 1700, elapsed: 1700) == nil)
    }

    @Test("distance in time: the wall time left over the distance left; other kinds have none")
    func distanceInTime() throws {
        let spec = MissionSpec.distanceInTime(distance: 5000, maxDuration: 1500)
        // 2 km in 660 s of wall time (a stop included): 840 s left for 3 km, 280 s/km.
        let needed = try #require(spec.paceNeeded(distance: 2000, moving: 600, elapsed: 660))
        #expect(needed.remaining == 3000 && needed.time == .elapsed && abs((needed.pace ?? 0) - 280) < 1e-9)
        #expect(MissionSpec.distance(minDistance: 5000).paceNeeded(distance: 0, moving: 0, elapsed: 0) == nil)
        #expect(MissionSpec.hills(minAscent: 100).paceNeeded(distance: 0, moving: 0, elapsed: 0) == nil)
        #expect(spec.paceNeeded(distance: .nan, moving: 0, elapsed: 0) == nil)
    }
}
