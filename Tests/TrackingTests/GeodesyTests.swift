#if canImport(Glibc)
import Glibc
#endif
import Testing
import RunusCore
@testable import Tracking

/// Independent oracle: integrate the geodesic differential equations on the WGS84 ellipsoid
/// with classical Runge–Kutta (geodetic latitude φ, longitude λ, azimuth α):
///   dφ/ds = cos α / M(φ),  dλ/ds = sin α / (N(φ) cos φ),  dα/ds = sin α tan φ / N(φ).
/// Nothing is shared with Vincenty's auxiliary-sphere series.
enum GeodesicODE {
    static func radii(_ phi: Double) -> (m: Double, n: Double) {
        let e2 = Geodesy.eccentricitySquared, a = Geodesy.equatorialRadius
        let w2 = 1 - e2 * sin(phi) * sin(phi)
        return (a * (1 - e2) / (w2 * w2.squareRoot()), a / w2.squareRoot())
    }

    static func derivative(_ y: (Double, Double, Double)) -> (Double, Double, Double) {
        let (phi, _, alpha) = y
        let (m, n) = radii(phi)
        return (cos(alpha) / m, sin(alpha) / (n * cos(phi)), sin(alpha) * tan(phi) / n)
    }

    /// End point (degrees) after `s` metres from (lat, lon) at initial azimuth `azimuth` degrees.
    static func endPoint(lat: Double, lon: Double, azimuth: Double, s: Double, steps: Int = 4000)
        -> (latitude: Double, longitude: Double) {
        let d = Double.pi / 180
        var y = (lat * d, lon * d, azimuth * d)
        let h = s / Double(steps)
        func add(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ k: Double) -> (Double, Double, Double) {
            (a.0 + k * b.0, a.1 + k * b.1, a.2 + k * b.2)
        }
        for _ in 0..<steps {
            let k1 = derivative(y)
            let k2 = derivative(add(y, k1, h / 2))
            let k3 = derivative(add(y, k2, h / 2))
            let k4 = derivative(add(y, k3, h))
            y = (y.0 + h / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0),
                 y.1 + h / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1),
                 y.2 + h / 6 * (k1.2 + 2 * k2.2 + 2 * k3.2 + k4.2))
        }
        var lonDeg = y.1 / d
        lonDeg = (lonDeg + 540).truncatingRemainder(dividingBy: 360) - 180
        return (y.0 / d, lonDeg)
    }

    /// Meridian arc length between two latitudes (degrees) by composite Simpson on M(φ).
    static func meridianArc(_ lat1: Double, _ lat2: Double, intervals: Int = 20_000) -> Double {
        let d = Double.pi / 180
        let a = lat1 * d, b = lat2 * d, h = (b - a) / Double(intervals)
        var sum = radii(a).m + radii(b).m
        for i in 1..<intervals { sum += radii(a + Double(i) * h).m * (i % 2 == 1 ? 4 : 2) }
        return abs(sum * h / 3)
    }
}

@Suite("Geodesy on WGS84")
struct GeodesyTests {
    /// GeographicLib quotes its own results to 1 mm; Vincenty agrees to ~0.1 mm where it converges.
    static let publishedTolerance: Meters = 0.001
    /// RK4 with 4000 steps over ≤ 3000 km has truncation error far below a micrometre; the
    /// 1 mm budget is Vincenty's documented accuracy (0.1 mm) with margin.
    static let oracleTolerance: Meters = 0.001

    @Test("Wellington to Salamanca matches GeographicLib's published 19959679.267 m")
    func publishedInverse() {
        // Near-antipodal: exercises the bisection fallback if the iteration stalls.
        let s = Geodesy.distance(latitude1: -41.32, longitude1: 174.81, latitude2: 40.96, longitude2: -5.50)
        #expect(abs(s - 19_959_679.267) < Self.publishedTolerance, "got \(s)")
    }

    @Test("Vincenty's non-convergent case (0,0)→(0.5,179.7) gives GeographicLib's 19944127.421 m")
    func fallbackCase() {
        let s = Geodesy.distance(latitude1: 0, longitude1: 0, latitude2: 0.5, longitude2: 179.7)
        #expect(abs(s - 19_944_127.421) < Self.publishedTolerance, "got \(s)")
    }

    /// The symmetric-latitude fallback nudges one latitude by 1e-7° (≈ 1.1 cm), record 0100.
    static let nudgeTolerance: Meters = 0.02

    @Test("antipodal points on the equator are two quarter meridians apart (20003931.459 m)")
    func equatorialAntipodes() {
        let s = Geodesy.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 180)
        #expect(abs(s - 2 * 10_001_965.729) < Self.nudgeTolerance, "got \(s)")
        let poles = Geodesy.distance(latitude1: 90, longitude1: 0, latitude2: -90, longitude2: 0)
        #expect(abs(poles - 2 * 10_001_965.729) < Self.publishedTolerance)
    }

    @Test("20,000 km SW of Perth matches GeographicLib's published (32.11195529, -63.95925278)")
    func publishedDirect() {
        let p = Geodesy.destination(latitude: -32.06, longitude: 115.74, bearing: 225, distance: 20_000e3)
        // Published to 1e-8 degrees (≈ 1 mm); allow rounding of the last digit.
        #expect(abs(p.latitude - 32.11195529) < 2e-8, "lat \(p.latitude)")
        #expect(abs(p.longitude - -63.95925278) < 2e-8, "lon \(p.longitude)")
    }

    @Test("inverse and direct agree with an integrated geodesic on random lines up to 3000 km")
    func againstODE() {
        var rng = SeededGenerator(seed: 100)
        for _ in 0..<40 {
            let lat = rng.uniform(-50, 50), lon = rng.uniform(-180, 180)
            let azimuth = rng.uniform(0, 360), s = rng.uniform(10, 3_000_000)
            let end = GeodesicODE.endPoint(lat: lat, lon: lon, azimuth: azimuth, s: s)
            let inverse = Geodesy.distance(latitude1: lat, longitude1: lon, latitude2: end.latitude, longitude2: end.longitude)
            #expect(abs(inverse - s) < Self.oracleTolerance, "s=\(s) inverse=\(inverse)")
            let direct = Geodesy.destination(latitude: lat, longitude: lon, bearing: azimuth, distance: s)
            let miss = Geodesy.distance(latitude1: direct.latitude, longitude1: direct.longitude,
                                        latitude2: end.latitude, longitude2: end.longitude)
            #expect(miss < Self.oracleTolerance, "direct misses by \(miss) m")
        }
    }

    @Test("meridian distances equal the integrated meridian arc", arguments: [
        (0.0, 1.0), (-10.0, 45.0), (45.0, 45.001), (60.0, 89.0), (-89.5, 89.5),
    ])
    func meridian(lat1: Double, lat2: Double) {
        let s = Geodesy.distance(latitude1: lat1, longitude1: 7, latitude2: lat2, longitude2: 7)
        #expect(abs(s - GeodesicODE.meridianArc(lat1, lat2)) < Self.oracleTolerance)
    }

    @Test("coincident points are 0 m apart and longitude wraps at the antimeridian")
    func edges() {
        #expect(Geodesy.distance(latitude1: 12, longitude1: 34, latitude2: 12, longitude2: 34) == 0)
        let across = Geodesy.distance(latitude1: 0, longitude1: 179.9999, latitude2: 0, longitude2: -179.9999)
        // 0.0002° of equator = a · 0.0002 · π/180 ≈ 22.26 m.
        #expect(abs(across - Geodesy.equatorialRadius * 0.0002 * .pi / 180) < 1e-6)
    }

    /// Budget from record 0100: the local approximation must stay under 0.1 % for run samples.
    static let localBudget = 1e-3

    @Test("local tangent distance is within 0.1 % of the ellipsoid for 1–5 s samples (and 1 km)")
    func localApproximation() {
        var rng = SeededGenerator(seed: 101)
        var worst = 0.0
        for _ in 0..<2000 {
            let lat = rng.uniform(-80, 80), lon = rng.uniform(-180, 180)
            let step = rng.bernoulli(0.9) ? rng.uniform(1, 30) : rng.uniform(30, 1000)
            let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: rng.uniform(0, 360), distance: step)
            let exact = Geodesy.distance(latitude1: lat, longitude1: lon, latitude2: p.latitude, longitude2: p.longitude)
            let local = Geodesy.localDistance(latitude1: lat, longitude1: lon, latitude2: p.latitude, longitude2: p.longitude)
            worst = max(worst, abs(local - exact) / exact)
        }
        #expect(worst < Self.localBudget)
        #expect(worst < 1e-5, "measured worst relative error \(worst); record 0100 quotes < 1e-5")
    }

    @Test("a sphere with gpxpy's radius overstates 1 km north at the equator by ~0.7 %")
    func sphereContrast() {
        func haversine(_ la1: Double, _ lo1: Double, _ la2: Double, _ lo2: Double) -> Double {
            let d = Double.pi / 180
            let h = pow(sin((la2 - la1) * d / 2), 2) + cos(la1 * d) * cos(la2 * d) * pow(sin((lo2 - lo1) * d / 2), 2)
            return 2 * 6_378_137 * asin(h.squareRoot())
        }
        // The meridian radius at the equator is a(1 − e²), 0.67 % below a.
        let north = Geodesy.destination(latitude: 0, longitude: 0, bearing: 0, distance: 1000)
        let sphere = haversine(0, 0, north.latitude, north.longitude)
        #expect(sphere / 1000 - 1 > 0.005, "sphere says \(sphere) m for 1000 m")
    }
}
