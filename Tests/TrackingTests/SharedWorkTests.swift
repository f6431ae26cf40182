import Testing
import RunusCore
@testable import Tracking

/// Record 0162: work one stage hands to another instead of computing it again must give the
/// same bits as computing it.
@Suite("Work shared between live stages")
struct SharedWorkTests {
    @Test("auto-pause given the vehicle stage's windowed speeds settles the same flags at every prefix", arguments: [0.0, 5, 10])
    func autoPauseKnownSpeeds(halfWidth: Double) {
        for seed: UInt64 in 1...6 {
            let points = AutoPauseTests.randomFixes(seed: seed, count: 400)
            let windowed = Track(points: points).windowedSpeeds(halfWidth: halfWidth)
            var plain = AutoPause(pauseSpeed: 0.5, resumeSpeed: 1, halfWidth: halfWidth)
            var given = plain
            var plainFlags: [Bool] = [], givenFlags: [Bool] = []
            for (i, p) in points.enumerated() {
                plain.append(p, into: &plainFlags)
                given.append(p, windowedSpeed: i == 0 ? .nan : windowed[i], into: &givenFlags)
                #expect(plainFlags == givenFlags, "seed \(seed), fix \(i)")
                #expect(plain.pendingFlags() == given.pendingFlags(), "seed \(seed), fix \(i)")
            }
        }
    }

    @Test("the jitter filter given the step from the previous fix adds the same distances", arguments: [0.0, 5, 8])
    func jitterKnownStep(radius: Double) {
        for seed: UInt64 in 1...6 {
            let points = AutoPauseTests.randomFixes(seed: seed, count: 400)
            var plain = JitterFilter(radius: radius), given = JitterFilter(radius: radius)
            for (i, p) in points.enumerated() {
                let q = points[max(0, i - 1)]
                let step = Geodesy.localDistance(latitude1: q.latitude, longitude1: q.longitude,
                                                 latitude2: p.latitude, longitude2: p.longitude)
                let a = plain.append(latitude: p.latitude, longitude: p.longitude)
                let b = given.append(latitude: p.latitude, longitude: p.longitude, previousLatitude: q.latitude,
                                     previousLongitude: q.longitude, distance: step)
                #expect(a.bitPattern == b.bitPattern, "seed \(seed), fix \(i)")
            }
        }
    }
}
