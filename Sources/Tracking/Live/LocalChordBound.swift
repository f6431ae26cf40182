#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// `Geodesy.localDistance` measured cheaply, with a bound on how far the cheap value may be from
/// it: the local radii of a cached reference mid-latitude φ₀ instead of the chord's own, valid
/// within `maxOffset` of φ₀ (the derivation is `ChordSpeedFilter`'s, record 0166). A caller that
/// needs the exact value near a threshold computes it and calls `noteExact`, which takes a new
/// reference when the chord was too far from the old one (the live vehicle stage's window
/// speed, record 0166; the live cleaning stage's spike test, record 0170).
struct LocalChordBound: Sendable {
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

    /// The chord from fix 1 to fix 2 (degrees) in metres, and r such that `localDistance` of the
    /// same fixes lies within [length·(1 − r), length·(1 + r)]; r is NaN when the chord is too
    /// far from the reference (or there is none): then only the exact value will do.
    @inline(__always) func chord(latitude1: Double, longitude1: Double, latitude2: Double,
                                 longitude2: Double) -> (length: Meters, bound: Double) {
        let phi = (latitude1 + latitude2) / 2 * Geodesy.degree
        let offset = abs(phi - reference)
        guard offset <= Self.maxOffset else { return (.nan, .nan) }   // false while the reference is NaN
        var dLon = longitude2 - longitude1
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let north = northScale * (latitude2 - latitude1), east = eastScale * dLon
        let u = slope * offset
        // e^u − 1 ≤ u(1 + u) for u ≤ 1.
        return ((north * north + east * east).squareRoot(), u * (1 + u) + Self.roundingSlack)
    }

    /// After an exact measure of a chord between these latitudes (degrees): takes its
    /// mid-latitude as the reference when it is too far from the current one.
    mutating func noteExact(latitude1: Double, latitude2: Double) {
        let phi = (latitude1 + latitude2) / 2 * Geodesy.degree
        if !(abs(phi - reference) <= Self.maxOffset) && abs(phi) < Self.maxReferenceLatitude { setReference(phi) }
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
