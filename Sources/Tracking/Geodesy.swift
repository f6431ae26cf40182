#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// Geodesics on the WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563).
/// Decision record: docs/decisions/0100-earth-model-and-geodesic-distance.md.
public enum Geodesy {
    /// WGS84 equatorial radius in metres.
    public static let equatorialRadius: Meters = 6_378_137
    /// WGS84 flattening (dimensionless).
    public static let flattening: Double = 1 / 298.257223563
    /// WGS84 polar radius in metres (≈ 6356752.314).
    public static let polarRadius: Meters = equatorialRadius * (1 - flattening)
    /// First eccentricity squared (dimensionless, ≈ 0.00669438).
    public static let eccentricitySquared: Double = flattening * (2 - flattening)

    static let degree = Double.pi / 180

    /// Distance on the WGS84 ellipsoid in metres (Vincenty's inverse formula, iterated to
    /// 1e-12 rad; where the iteration does not converge, near-antipodal points, the same
    /// λ equation is solved by bisection). Accuracy against GeographicLib: see record 0100.
    /// Inputs in degrees; latitudes in [-90, 90], longitudes any value.
    public static func distance(latitude1: Double, longitude1: Double,
                                latitude2: Double, longitude2: Double) -> Meters {
        vincentyInverse(latitude1, longitude1, latitude2, longitude2, nudged: false)
    }

    private static func vincentyInverse(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double,
                                        _ longitude2: Double, nudged: Bool) -> Meters {
        let a = equatorialRadius, b = polarRadius, f = flattening
        let u1 = atan((1 - f) * tan(latitude1 * degree))
        let u2 = atan((1 - f) * tan(latitude2 * degree))
        var lonDiff = (longitude2 - longitude1).truncatingRemainder(dividingBy: 360)
        if lonDiff > 180 { lonDiff -= 360 } else if lonDiff < -180 { lonDiff += 360 }
        let l = lonDiff * degree
        let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)

        struct Terms { var sigma = 0.0, sinSigma = 0.0, cosSigma = 1.0, cosSqAlpha = 1.0, cos2SigmaM = 0.0 }
        /// Evaluates the auxiliary-sphere terms for a trial λ and returns the next λ.
        func step(_ lambda: Double, _ t: inout Terms) -> Double? {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let x = cosU2 * sinLambda, y = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            t.sinSigma = (x * x + y * y).squareRoot()
            if t.sinSigma == 0 { return nil }  // coincident (or exactly antipodal on the auxiliary sphere)
            t.cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            t.sigma = atan2(t.sinSigma, t.cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / t.sinSigma
            t.cosSqAlpha = 1 - sinAlpha * sinAlpha
            t.cos2SigmaM = t.cosSqAlpha != 0 ? t.cosSigma - 2 * sinU1 * sinU2 / t.cosSqAlpha : 0
            let c = f / 16 * t.cosSqAlpha * (4 + f * (4 - 3 * t.cosSqAlpha))
            return l + (1 - c) * f * sinAlpha
                * (t.sigma + c * t.sinSigma * (t.cos2SigmaM + c * t.cosSigma * (-1 + 2 * t.cos2SigmaM * t.cos2SigmaM)))
        }

        var terms = Terms()
        var lambda = l
        var converged = false
        for _ in 0..<200 {
            guard let next = step(lambda, &terms) else {
                if terms.sinSigma == 0 && abs(lambda) < 1 { return 0 }
                break
            }
            if abs(next - lambda) < 1e-12 { lambda = next; converged = true; break }
            lambda = next
        }
        if !converged {
            // Fallback: g(λ) = next(λ) − λ is ≥ 0 at λ = |L| and ≤ 0 at λ = π (there sin α = 0),
            // so a root lies in between; bisection finds it in ~60 halvings.
            // When U1 = −U2 (reduced latitudes symmetric, e.g. both on the equator) sin σ
            // vanishes at λ = π and no root may exist: then nudge the second latitude by 1e-7°
            // (≈ 1 cm), which changes the distance by at most that much (record 0100).
            let sign: Double = l < 0 ? -1 : 1
            var lo = abs(l), hi = Double.pi
            for _ in 0..<80 {
                let mid = (lo + hi) / 2
                guard let next = step(sign * mid, &terms) else { hi = mid; continue }
                if sign * next - mid > 0 { lo = mid } else { hi = mid }
            }
            lambda = sign * (lo + hi) / 2
            let residual = step(lambda, &terms).map { abs($0 - lambda) } ?? .infinity
            if residual > 1e-9 && nudged == false {
                let bumped = latitude2 < 89 ? latitude2 + 1e-7 : latitude2 - 1e-7
                return vincentyInverse(latitude1, longitude1, bumped, longitude2, nudged: true)
            }
        }
        let uSq = terms.cosSqAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let c2 = terms.cos2SigmaM
        let deltaSigma = bigB * terms.sinSigma * (c2 + bigB / 4 * (terms.cosSigma * (-1 + 2 * c2 * c2)
            - bigB / 6 * c2 * (-3 + 4 * terms.sinSigma * terms.sinSigma) * (-3 + 4 * c2 * c2)))
        return b * bigA * (terms.sigma - deltaSigma)
    }

    /// Point reached from a start by going `distance` metres (≥ 0, up to half the meridian,
    /// ~20,000 km) along the initial `bearing` (degrees clockwise from north), on WGS84
    /// (Vincenty's direct formula, iterated to 1e-12 rad; sub-millimetre for runs, see 0100).
    /// Returns degrees; longitude in [-180, 180).
    public static func destination(latitude: Double, longitude: Double, bearing: Double,
                                   distance: Meters) -> (latitude: Double, longitude: Double) {
        let a = equatorialRadius, b = polarRadius, f = flattening
        let alpha1 = bearing * degree
        let sinAlpha1 = sin(alpha1), cosAlpha1 = cos(alpha1)
        let tanU1 = (1 - f) * tan(latitude * degree)
        let cosU1 = 1 / (1 + tanU1 * tanU1).squareRoot(), sinU1 = tanU1 * cosU1
        let sigma1 = atan2(tanU1, cosAlpha1)
        let sinAlpha = cosU1 * sinAlpha1
        let cosSqAlpha = 1 - sinAlpha * sinAlpha
        let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))

        var sigma = distance / (b * bigA)
        var sinSigma = 0.0, cosSigma = 1.0, cos2SigmaM = 0.0
        for _ in 0..<200 {
            cos2SigmaM = cos(2 * sigma1 + sigma)
            sinSigma = sin(sigma); cosSigma = cos(sigma)
            let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
            let next = distance / (b * bigA) + deltaSigma
            if abs(next - sigma) < 1e-12 { sigma = next; break }
            sigma = next
        }
        cos2SigmaM = cos(2 * sigma1 + sigma)
        sinSigma = sin(sigma); cosSigma = cos(sigma)
        let x = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1
        let lat2 = atan2(sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1,
                         (1 - f) * (sinAlpha * sinAlpha + x * x).squareRoot())
        let lambda = atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1)
        let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
        let l = lambda - (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        var lon2 = (longitude + l / degree + 540).truncatingRemainder(dividingBy: 360)
        if lon2 < 0 { lon2 += 360 }
        return (lat2 / degree, lon2 - 180)
    }

    /// Fast distance for nearby fixes (local tangent plane on the ellipsoid: meridional and
    /// prime-vertical radii of curvature at the mid latitude). Metres; relative error against
    /// `distance` below 1e-5 for steps under 1 km away from the poles (record 0100, tested).
    /// Used for per-point summing; use `distance` for anything longer than ~1 km.
    public static func localDistance(latitude1: Double, longitude1: Double,
                                     latitude2: Double, longitude2: Double) -> Meters {
        let phi = (latitude1 + latitude2) / 2 * degree
        // Side by side (one basic block), so that the compiler makes them one `sincos` call,
        // which gives exactly `sin`'s and `cos`'s bits (record 0162; needs -fno-math-errno).
        let s = sin(phi), cosPhi = cos(phi)
        let w2 = 1 - eccentricitySquared * s * s
        let n = equatorialRadius / w2.squareRoot()                                       // prime vertical
        let m = equatorialRadius * (1 - eccentricitySquared) / (w2 * w2.squareRoot())    // meridional
        var dLon = longitude2 - longitude1
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let north = m * (latitude2 - latitude1) * degree
        let east = n * cosPhi * dLon * degree
        return (north * north + east * east).squareRoot()
    }
}
