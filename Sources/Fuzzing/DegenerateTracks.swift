import RunusCore

/// A track in the wire format of `runs.ingest` (`[t, lat, lon, ele?, hr?, cad?, device_distance_m?]`
/// per fix), as
/// raw JSON so that a coordinate can be `-0` or `1e-320`.
public struct WirePoints: Sendable {
    /// The generator's name for it: `two-fixes-20-min`, `3.5-km-in-0.1-s`, …
    public let name: String
    public let points: [[RawJSON]]
    /// The first fix's time when the track is a clean run the daemon must accept (its answer's
    /// `run.start_time`), nil for degenerate tracks (accepted or refused, never a trap).
    public let cleanStart: Double?

    public var json: RawJSON { .array(points.map { .array($0) }) }
}

/// Tracks that make degenerate metrics: zero or near-zero durations and distances, speeds of
/// thousands of m/s, gaps of years, clocks in the future, positions at the poles and across the
/// antimeridian (record 0540). Times are around `start`, positions around (`lat`, `lon`).
public enum DegenerateTracks {
    /// Every kind, by name; `make(_:)` builds one.
    public static let names: [String] = [
        "two-fixes-20-min", "two-identical-fixes", "same-time-different-place", "same-place-1-hz",
        "fixes-1e6-s-apart", "walk-0.33-m-per-s", "3.5-km-in-0.1-s", "zero-metre-run", "run-lasting-years",
        "future-dated-10-years", "future-dated-max-time", "epoch-1970", "backwards-clock", "antimeridian",
        "north-pole", "subnormal-coordinates", "extreme-readings", "nanosecond-steps", "one-vehicle-jump",
        "single-fix", "no-fixes", "out-of-range-values", "long-decimal-times", "clean-5k", "clean-intervals",
        "run-then-gap-to-max-time", "indoor-readings", "readings-fall", "readings-jump", "readings-without-fixes-half-position",
        "max-points",
    ]

    /// Kinds that are cheap enough to send often (`max-points` has 86,400 fixes).
    public static let common: [String] = names.filter { $0 != "max-points" }

    /// Builds the track `name`. `start` is Unix seconds; `lat`/`lon` degrees.
    /// `scale` (0…1] shortens the long tracks (a count of fixes n becomes max(2, n × scale)),
    /// for a quick slice on a debug build; their shape (speeds, gaps, clocks) stays.
    public static func make(_ name: String, start t0: Double, lat start: Double, lon: Double, scale: Double = 1,
                            _ g: inout SeededGenerator) -> WirePoints {
        func c(_ count: Int) -> Int { count <= 10 ? count : max(10, Int(Double(count) * scale)) }
        // Tracks run north; a clean one must not run past the pole (a latitude over 90 is refused).
        let lat = name.hasPrefix("clean") ? min(start, 80) : start
        func n(_ x: Double) -> RawJSON { .number(x) }
        func fix(_ t: Double, _ la: Double, _ lo: Double) -> [RawJSON] { [n(t), n(la), n(lo)] }
        /// `count` fixes every `dt` seconds moving north `step` metres each.
        func line(_ count: Int, dt: Double, step: Double, from t: Double = t0) -> [[RawJSON]] {
            (0..<count).map { k in fix(t + Double(k) * dt, lat + Double(k) * step / 111_200, lon) }
        }
        var clean: Double?
        let points: [[RawJSON]]
        switch name {
        case "two-fixes-20-min": points = [fix(t0, lat, lon), fix(t0 + 1200, lat + 0.0001, lon)]
        case "two-identical-fixes": points = [fix(t0, lat, lon), fix(t0, lat, lon)]
        case "same-time-different-place": points = [fix(t0, lat, lon), fix(t0, lat + 0.01, lon), fix(t0, lat + 0.02, lon)]
        case "same-place-1-hz": points = line(c(600), dt: 1, step: 0)
        case "fixes-1e6-s-apart": points = line(3, dt: 1e6, step: 1000)
        case "walk-0.33-m-per-s": points = line(c(360), dt: 10, step: 3.3)
        case "3.5-km-in-0.1-s": points = line(101, dt: 0.001, step: 35)
        case "zero-metre-run": points = line(c(1800), dt: 1, step: 0)
        case "run-lasting-years": points = line(4, dt: 365.25 * 86_400, step: 2000)
        case "future-dated-10-years": points = line(c(1500), dt: 1, step: 3.3, from: t0 + 10 * 365.25 * 86_400)
        case "future-dated-max-time": points = line(c(600), dt: 1, step: 3, from: 1e11 - 600)
        case "epoch-1970": points = line(c(600), dt: 1, step: 3, from: 0)
        case "backwards-clock": points = (0..<c(300)).map { k in fix(t0 - Double(k) * 2, lat + Double(k) * 6 / 111_200, lon) }
        case "antimeridian":
            points = (0..<c(300)).map { k in
                let x = 179.9995 + Double(k) * 3e-5  // east across 180°: wraps to -179.99…
                return fix(t0 + Double(k), lat, x > 180 ? x - 360 : x)
            }
        case "north-pole": points = (0..<c(300)).map { k in fix(t0 + Double(k), 90, Double(k % 360) - 180) }
        case "subnormal-coordinates":
            points = (0..<50).map { k -> [RawJSON] in
                [n(t0 + Double(k)), .raw(k % 2 == 0 ? "1e-320" : "-0"), .raw(k % 3 == 0 ? "-0.0" : "4.9e-324")]
            }
        case "extreme-readings":
            points = (0..<c(400)).map { k -> [RawJSON] in
                let even = k % 2 == 0
                let ele: RawJSON = n(even ? -500 : 9000)
                let hr: RawJSON = k % 3 == 0 ? .raw("null") : n(even ? 20 : 260)
                let cad: RawJSON = n(even ? 0 : 300)
                return fix(t0 + Double(k), lat + Double(k) * 3 / 111_200, lon) + [ele, hr, cad]
            }
        case "nanosecond-steps": points = line(c(200), dt: 1e-9, step: 3)
        case "one-vehicle-jump":
            points = line(c(600), dt: 1, step: 3) + line(60, dt: 1, step: 300, from: t0 + Double(c(600)))
                + line(c(600), dt: 1, step: 3, from: t0 + Double(c(600) + 60))
        case "single-fix": points = [fix(t0, lat, lon)]
        case "no-fixes": points = []
        case "out-of-range-values":
            let badLat: RawJSON = .raw(g.bernoulli(0.5) ? "90.0000001" : "-91")
            let rows: [[RawJSON]] = [fix(t0, lat, lon), [n(t0 + 1), badLat, n(lon)], [.raw("-1"), n(lat), n(lon)],
                                     [n(1e11 + 1), n(lat), n(lon)], [n(t0 + 3), n(lat), .raw("180.00001")], [n(t0 + 4), n(lat), n(lon), n(9001)]]
            points = rows
        case "long-decimal-times":
            points = (0..<c(120)).map { k -> [RawJSON] in
                [.raw("\(Int(t0) + k).000000000000000000000000001"), n(lat + Double(k) * 3 / 111_200), n(lon)]
            }
        case "clean-5k":
            clean = t0
            points = line(c(1500), dt: 1, step: 3.34).enumerated().map { k, p in p + [n(40 + Double(k % 7)), n(150), n(170)] }
        case "clean-intervals":
            clean = t0
            var t = t0, la = lat
            var out: [[RawJSON]] = []
            for rep in 0..<6 {
                for _ in 0..<(rep % 2 == 0 ? 90 : 120) { out.append(fix(t, la, lon)); t += 1; la += (rep % 2 == 0 ? 4.6 : 2.0) / 111_200 }
            }
            points = out
        case "run-then-gap-to-max-time":
            // Ten minutes of running, then one fix at the largest time the wire accepts.
            points = line(c(600), dt: 1, step: 3) + [fix(1e11, lat + Double(c(600)) * 3 / 111_200, lon)]
        case "indoor-readings":
            // A treadmill: no positions, the device's distance as the seventh value (record 0116).
            points = (0..<c(900)).map { k in [n(t0 + Double(k)), .raw("null"), .raw("null"), .raw("null"), n(150), .raw("null"), n(Double(k) * 2.9)] }
        case "readings-fall":
            points = line(c(300), dt: 3, step: 9).enumerated().map { k, p in p + [.raw("null"), .raw("null"), .raw("null"), n(k == 150 ? 1 : Double(k) * 9)] }
        case "readings-jump":
            points = line(c(300), dt: 5, step: 15).enumerated().map { k, p in p + [.raw("null"), .raw("null"), .raw("null"), n(Double(k) * 15 + (k > 100 ? 9e5 : 0))] }
        case "readings-without-fixes-half-position":
            points = (0..<c(60)).map { k in [n(t0 + Double(k)), k % 7 == 3 ? n(lat) : .raw("null"), .raw("null"), .raw("null"), .raw("null"), .raw("null"), n(Double(k) * 3)] }
        case "max-points":
            // Coordinates to 7 decimals (1 cm), so that 86,400 fixes fit in the 4 MiB line limit.
            points = (0..<c(86_400)).map { k in
                fix(t0 + Double(k), ((lat + Double(k) * 2.5 / 111_200) * 1e7).rounded() / 1e7, (lon * 1e7).rounded() / 1e7)
            }
        default: preconditionFailure("DegenerateTracks: no track named \(name)")
        }
        return WirePoints(name: name, points: points, cleanStart: clean)
    }
}
