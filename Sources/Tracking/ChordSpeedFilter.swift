#if canImport(Glibc)
import Glibc
#endif
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
/// The bound: `localDistance` is √(N² + E²) with N = M(φ)·Δlat and E = N(φ)·cos φ·Δlon (φ the
/// mid-latitude). Over latitudes within `maxOffset` of the reference φ₀, |d ln M / dφ| ≤ 1.5 e² /
/// (1 − e²) < 0.0102 and |d ln(N cos φ) / dφ| ≤ |tan φ| + e² / (2(1 − e²)), so each component,
/// and with them the norm, is off by a factor within exp(±K·|φ − φ₀|), K = tan(|φ₀| + maxOffset)
/// + 0.0102. `roundingSlack` covers the two computations' rounding (a few dozen operations of
/// relative error 2⁻⁵³ and libm's sine and cosine within an ulp: under 1e-14).
struct ChordSpeedFilter: Sendable {
    /// Speeds in m/s the result is compared with; the result is exact within the bound of any.
    /// Any values: an infinite one compares alike on both sides of the filter, and a NaN one
    /// makes every result exact (a configuration may disable a rule with them).
    let thresholds: [Double]
    /// Latitude difference in radians from the reference beyond which a new reference is taken
    /// (0.002 rad ≈ 12.7 km north–south: a new reference every few minutes in a car).
    static let maxOffset = 0.002
    /// Relative error added for rounding (≥ 300 × the rounding it covers).
    static let roundingSlack = 1e-12
    /// No filter from this reference latitude (radians, ≈ 80°) poleward: tan grows without bound.
    static let maxReferenceLatitude = 1.4

    /// Reference mid-latitude φ₀ (radians; NaN before the first chord), metres per degree of
    /// latitude and of longitude there, and K (per radian).
    private var reference = Double.nan
    private var northScale = 0.0, eastScale = 0.0, slope = 0.0
    /// Chords measured, and those that needed the exact speed (for the tests).
    private(set) var chords = 0, exact = 0

    init(thresholds: [Double]) { self.thresholds = thresholds }

    /// The straight-line speed from `a` to `b` in m/s (b after a), exact, or on the same side of
    /// every threshold as the exact `Track.speed(a, b)` (see the type).
    @inline(__always) mutating func speed(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        chords += 1
        let phi = (a.latitude + b.latitude) / 2 * Geodesy.degree
        let offset = abs(phi - reference)
        if offset <= Self.maxOffset {   // false while the reference is NaN
            var dLon = b.longitude - a.longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            let north = northScale * (b.latitude - a.latitude), east = eastScale * dLon
            let cheap = (north * north + east * east).squareRoot() / (b.time - a.time)
            let u = slope * offset
            let r = u * (1 + u) + Self.roundingSlack   // e^u − 1 ≤ u(1 + u) for u ≤ 1
            // No threshold within [low, high] (NaN or ∞ fail and fall through to the exact value).
            if clear(low: cheap * (1 - r), high: cheap * (1 + r)) { return cheap }
        }
        return exactSpeed(a, b, phi: phi, offset: offset)
    }

    /// Whether no threshold lies in [low, high], both finite.
    @inline(__always) private func clear(low: Double, high: Double) -> Bool {
        guard low.isFinite && high.isFinite else { return false }
        for t in thresholds where !(low > t || high < t) { return false }
        return true
    }

    /// The exact speed, taking `phi` (radians) as the new reference when it is too far from the
    /// old one.
    @inline(never) private mutating func exactSpeed(_ a: TrackPoint, _ b: TrackPoint, phi: Double, offset: Double) -> Double {
        if !(offset <= Self.maxOffset) && abs(phi) < Self.maxReferenceLatitude { setReference(phi) }
        exact += 1
        return Track.speed(a, b)
    }

    private mutating func setReference(_ phi: Double) {
        reference = phi
        let s = sin(phi), c = cos(phi)
        let w2 = 1 - Geodesy.eccentricitySquared * s * s
        let n = Geodesy.equatorialRadius / w2.squareRoot()
        let m = Geodesy.equatorialRadius * (1 - Geodesy.eccentricitySquared) / (w2 * w2.squareRoot())
        northScale = m * Geodesy.degree
        eastScale = n * c * Geodesy.degree
        slope = tan(abs(phi) + Self.maxOffset) + 0.0102
    }
}
