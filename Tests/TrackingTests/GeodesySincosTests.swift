#if canImport(Glibc)
import Glibc
#endif
import Testing
import RunusCore
@testable import Tracking

/// Record 0162: the Tracking module is built with `-fno-math-errno`, so that in a release build
/// the `sin` and `cos` of one angle in `Geodesy.localDistance` become one `sincos` call. This test
/// target is built without that flag: its `sin` and `cos` are separate calls, and
/// `localDistance` must give their bits exactly (meaningful in a release build, where the
/// compiler makes the `sincos`: `swift test -c release --filter GeodesySincosTests`).
@Suite("Geodesy.localDistance with sincos")
struct GeodesySincosTests {
    /// `Geodesy.localDistance` as written before record 0162, with `sin` and `cos` called apart.
    static func reference(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let degree = Double.pi / 180
        let phi = (latitude1 + latitude2) / 2 * degree
        let s = sin(phi)
        let w2 = 1 - Geodesy.eccentricitySquared * s * s
        let n = Geodesy.equatorialRadius / w2.squareRoot()
        let m = Geodesy.equatorialRadius * (1 - Geodesy.eccentricitySquared) / (w2 * w2.squareRoot())
        var dLon = longitude2 - longitude1
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let north = m * (latitude2 - latitude1) * degree
        let east = n * cos(phi) * dLon * degree
        return (north * north + east * east).squareRoot()
    }

    /// libm's own `sincos`, looked up at run time (Swift's Glibc module does not import the GNU
    /// extension): what a release build calls in `localDistance`.
    typealias SinCos = @convention(c) (Double, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>) -> Void
    static let libmSincos: SinCos? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sincos") else { return nil }   // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: SinCos.self)
        #else
        return nil
        #endif
    }()

    /// The assumption of record 0162 checked on the machine that runs the tests, in any build:
    /// libm's `sincos` gives exactly the bits of its `sin` and `cos`. If this fails here, drop
    /// `-fno-math-errno` from the Tracking target (Package.swift).
    @Test("libm's sincos gives sin's and cos's bits", .enabled(if: libmSincos != nil, "libm has no sincos here"))
    func libmAgrees() throws {
        let sincos = try #require(Self.libmSincos)
        var rng = SeededGenerator(seed: 1662)
        var s = 0.0, c = 0.0, mismatches = 0
        // Every 1e-4° of latitude as localDistance's radians, then random angles in [−π/2, π/2].
        var angles = stride(from: -90.0, through: 90.0, by: 1e-4).map { $0 * Double.pi / 180 }
        angles += (0..<1_000_000).map { _ in Double.random(in: -Double.pi / 2...Double.pi / 2, using: &rng) }
        for x in angles {
            sincos(x, &s, &c)
            if s.bitPattern != sin(x).bitPattern || c.bitPattern != cos(x).bitPattern { mismatches += 1 }
        }
        #expect(angles.count >= 2_800_000)
        #expect(mismatches == 0, "\(mismatches) angles where sincos differs from sin and cos")
    }

    @Test("bit for bit the separate sin and cos over a dense sweep of latitudes and random steps")
    func sweep() {
        var rng = SeededGenerator(seed: 162)
        var mismatches = 0, checked = 0
        // Every 1e-4° of latitude (≈ 11 m) from pole to pole: 1.8 million mid latitudes.
        var latitude = -90.0
        while latitude <= 90 {
            let dLat = Double.random(in: -0.01...0.01, using: &rng)
            let lon = Double.random(in: -180...180, using: &rng), dLon = Double.random(in: -0.01...0.01, using: &rng)
            let lat2 = min(90, max(-90, latitude + dLat))
            let ours = Geodesy.localDistance(latitude1: latitude, longitude1: lon, latitude2: lat2, longitude2: lon + dLon)
            if ours.bitPattern != Self.reference(latitude, lon, lat2, lon + dLon).bitPattern { mismatches += 1 }
            checked += 1
            latitude += 1e-4
        }
        #expect(checked > 1_700_000)
        #expect(mismatches == 0)
    }
}
