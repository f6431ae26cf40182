import RunusCore

/// `Track.speed` of a window's chord for readers that only compare it with a few fixed
/// thresholds (record 0166): the live vehicle stage's windowed speed, which the speed rule and
/// the evidence test compare with `vehicleSpeed` and auto-pause with `pauseSpeed` and
/// `resumeSpeed`.
///
/// A filtered exact predicate, as in computational geometry: the chord is first measured with
/// the local radii of a cached reference latitude (no sine or cosine), together with a bound on
/// how far that can be from `Geodesy.localDistance`. When the cheap speed is farther from every
/// threshold than the bound, it lies on the same side of each threshold as the exact speed and
/// is returned; otherwise the exact `Track.speed` is. So every comparison with a threshold gives
/// what the exact value gives, and nothing else may be done with the result.
///
/// The bound (`LocalChordBound`, record 0170): `localDistance` is √(N² + E²) with N = M(φ)·Δlat
/// and E = N(φ)·cos φ·Δlon (φ the mid-latitude). Over latitudes within `maxOffset` of the
/// reference φ₀, |d ln M / dφ| ≤ 1.5 e² / (1 − e²) < 0.0102 and |d ln(N cos φ) / dφ| ≤ |tan φ| +
/// e² / (2(1 − e²)), so each component, and with them the norm, is off by a factor within
/// exp(±K·|φ − φ₀|), K = tan(|φ₀| + maxOffset) + 0.0102. `roundingSlack` covers the two
/// computations' rounding (a few dozen operations of relative error 2⁻⁵³ and libm's sine and
/// cosine within an ulp: under 1e-14).
struct ChordSpeedFilter: Sendable {
    /// Speeds in m/s the result is compared with; the result is exact within the bound of any.
    /// Any values: an infinite one compares alike on both sides of the filter, and a NaN one
    /// makes every result exact (a configuration may disable a rule with them).
    let thresholds: [Double]
    /// The cached reference latitude and its radii (`LocalChordBound`, which the spike test uses too).
    private var cheap = LocalChordBound()
    /// Chords measured, and those that needed the exact speed (for the tests).
    private(set) var chords = 0, exact = 0

    init(thresholds: [Double]) { self.thresholds = thresholds }

    /// The straight-line speed from `a` to `b` in m/s (b after a), exact, or on the same side of
    /// every threshold as the exact `Track.speed(a, b)` (see the type).
    @inline(__always) mutating func speed(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        chords += 1
        let c = cheap.chord(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        if !c.bound.isNaN {
            let cheap = c.length / (b.time - a.time)
            let r = c.bound
            // No threshold within [low, high] (NaN or ∞ fail and fall through to the exact value).
            if clear(low: cheap * (1 - r), high: cheap * (1 + r)) { return cheap }
        }
        return exactSpeed(a, b)
    }

    /// Whether no threshold lies in [low, high], both finite.
    @inline(__always) private func clear(low: Double, high: Double) -> Bool {
        guard low.isFinite && high.isFinite else { return false }
        for t in thresholds where !(low > t || high < t) { return false }
        return true
    }

    /// The exact speed, taking the chord's mid-latitude as the new reference when it is too far
    /// from the old one.
    @inline(never) private mutating func exactSpeed(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        cheap.noteExact(latitude1: a.latitude, latitude2: b.latitude)
        exact += 1
        return Track.speed(a, b)
    }
}
