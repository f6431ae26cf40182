import Testing
import RunusCore
@testable import Tracking

/// Record 0166: the filtered windowed speed must compare with every threshold as the exact
/// `Track.speed` does, and must spare the exact computation on an ordinary run.
@Suite("Chord speed filter")
struct ChordSpeedFilterTests {
    /// Fixes wandering from `latitude`: steps of up to `maxStep` degrees every 1–10 s, with a
    /// jump of up to 0.05° now and then (new references, speeds far beyond any threshold).
    static func wander(seed: UInt64, latitude: Double, longitude: Double, count: Int, maxStep: Double) -> [TrackPoint] {
        var rng = SeededGenerator(seed: seed)
        var t = 1_700_000_000.0, lat = latitude, lon = longitude
        var points: [TrackPoint] = []
        for _ in 0..<count {
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon))
            t += Double.random(in: 1...10, using: &rng)
            let jump = Double.random(in: 0..<1, using: &rng) < 0.02 ? 0.05 : maxStep
            lat = min(89.9, max(-89.9, lat + Double.random(in: -jump...jump, using: &rng)))
            lon += Double.random(in: -jump...jump, using: &rng)
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        }
        return points
    }

    @Test("every comparison with a threshold is the exact speed's, thresholds on the exact speeds included",
          arguments: [0.0, 37.5, -52.0, 79.0, 85.0, 89.5])
    func comparisons(latitude: Double) {
        for seed: UInt64 in 1...4 {
            let points = Self.wander(seed: seed, latitude: latitude, longitude: 179.9, count: 600, maxStep: 0.0002)
            let exactSpeeds = zip(points, points.dropFirst()).map { Track.speed($0, $1) }
            // Thresholds at, and one ulp either side of, some of the exact speeds: the hardest cases.
            let picked = exactSpeeds.enumerated().filter { $0.offset % 37 == 0 }.map(\.element)
            let thresholds = [0.5, 1.0, 7.0, .infinity] + picked.flatMap { [$0.nextDown, $0, $0.nextUp] }
            var filter = ChordSpeedFilter(thresholds: thresholds)
            for (i, (a, b)) in zip(points, points.dropFirst()).enumerated() {
                let f = filter.speed(a, b), e = exactSpeeds[i]
                for t in thresholds {
                    #expect((f > t) == (e > t) && (f < t) == (e < t) && (f >= t) == (e >= t),
                            "seed \(seed), chord \(i): filtered \(f), exact \(e), threshold \(t)")
                }
            }
            #expect(filter.chords == exactSpeeds.count)
        }
    }

    @Test("on an ordinary run the exact speed is computed for a few chords only")
    func sparesExact() {
        // A 1 Hz run about 3 m/s with GPS noise (about 1e-5° ≈ 1 m), and the thresholds of the
        // live stage: only chords within a fraction of a per cent of one of them, and the first
        // (no reference yet), need the exact value.
        var rng = SeededGenerator(seed: 7)
        var points: [TrackPoint] = []
        var lat = 48.2, lon = 16.37
        for s in 0..<3_600 {
            points.append(TrackPoint(time: 1_700_000_000 + Double(s), latitude: lat + Double.random(in: -1e-5...1e-5, using: &rng),
                                     longitude: lon + Double.random(in: -1e-5...1e-5, using: &rng)))
            lat += 2.7e-5; lon += 1e-5
        }
        var filter = ChordSpeedFilter(thresholds: [7, 0.5, 1])
        for i in 10..<points.count { _ = filter.speed(points[i - 10], points[i]) }
        #expect(filter.chords == 3_590)
        #expect(filter.exact * 100 <= filter.chords, "exact \(filter.exact) of \(filter.chords)")
    }

    @Test("a NaN threshold (a rule switched off) makes every speed exact")
    func nanThreshold() {
        let points = Self.wander(seed: 5, latitude: 45, longitude: 7, count: 200, maxStep: 0.0002)
        var filter = ChordSpeedFilter(thresholds: [7, .nan])
        for (a, b) in zip(points, points.dropFirst()) {
            #expect(filter.speed(a, b).bitPattern == Track.speed(a, b).bitPattern)
        }
        #expect(filter.exact == filter.chords)
    }

    @Test("near the poles the speed is always exact")
    func polar() {
        let points = Self.wander(seed: 3, latitude: 84, longitude: 10, count: 200, maxStep: 0.0002)
        var filter = ChordSpeedFilter(thresholds: [0.5, 1, 7])
        for (a, b) in zip(points, points.dropFirst()) {
            #expect(filter.speed(a, b).bitPattern == Track.speed(a, b).bitPattern)
        }
        #expect(filter.exact == filter.chords)
    }
}
