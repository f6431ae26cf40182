import Foundation
import RunusCore
import Tracking
import TrackFormats

/// One row of `reference/expected.csv` checked against our readers and metrics.
public struct ReferenceRow {
    public var file: String
    public var activityIndex: Int?
    public var quantity: String
    public var expected: String
    public var suiteTolerance: String
    public var suite: String
    /// Our value from the track (Tracking's RunMetrics) or the reader's outcome; nil = not defined.
    public var ours: String? = nil
    /// The device total our reader found in the file, when the quantity has one.
    public var device: String? = nil
    /// Our parsed samples summarised with the suite's own documented definition (record 0114).
    public var suiteDefinition: String? = nil
    public var tolerance = ""
    public var verdict = "n/a"
}

/// Builds the reference table (record 0114 states the tolerances and definitions).
public enum ReferenceCheck {
    /// Splits one CSV line with double-quoted cells.
    public static func cells(_ line: Substring) -> [String] {
        var out: [String] = [], cell = "", quoted = false
        var it = line.makeIterator()
        while let c = it.next() {
            if quoted {
                if c == "\"" { quoted = false } else { cell.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { out.append(cell); cell = "" }
            else { cell.append(c) }
        }
        out.append(cell)
        return out
    }

    public static func rows(dataset: String) throws -> [ReferenceRow] {
        let text = String(decoding: try TrackFiles.bytes(dataset + "/reference/expected.csv"), as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).dropFirst().compactMap { line in
            let c = cells(line)
            guard c.count >= 6 else { return nil }
            return ReferenceRow(file: c[0], activityIndex: Int(c[1]), quantity: c[2], expected: c[3],
                                suiteTolerance: c[4], suite: c[5])
        }
    }

    /// Our tolerance for a quantity given the expected value: the issue's for distance (0.5 % or
    /// 5 m), times (1 s) and climb (10 % or 5 m); otherwise the suite's own (an `exact` integer
    /// compares after rounding, ±0.5).
    public static func tolerance(_ q: String, expected: Double, suite: String) -> (Double, String) {
        switch q {
        case "distance_m": return (max(0.005 * abs(expected), 5), "0.5% or 5 m")
        case "elapsed_time_s", "moving_time_s", "timer_time_s": return (1, "1 s")
        case "ascent_m", "descent_m": return (max(0.1 * abs(expected), 5), "10% or 5 m")
        default:
            if suite.hasPrefix("abs "), let x = Double(suite.dropFirst(4)) { return (max(x, 0.5), "abs \(max(x, 0.5))") }
            if suite.hasPrefix("rel "), let x = Double(suite.dropFirst(4).dropLast()) { return (abs(expected) * x / 100, suite) }
            return (0.5, "±0.5 (rounded)")
        }
    }

    public static func check(dataset: String) throws -> [ReferenceRow] {
        var rows = try rows(dataset: dataset)
        var cache: [String: Result<[Activity], TrackReadError>] = [:]
        var metricsCache: [String: RunMetrics] = [:]
        for k in rows.indices {
            var r = rows[k]
            defer { rows[k] = r }
            let path = dataset + "/reference/" + r.file
            if cache[r.file] == nil {
                do { cache[r.file] = .success(try TrackFiles.load(path).activities) }
                catch let e as TrackReadError { cache[r.file] = .failure(e) }
                catch { cache[r.file] = .failure(TrackReadError(file: path, offset: 0, problem: .unsupported, message: "\(error)")) }
            }
            let result = cache[r.file]!
            if r.quantity == "parse_outcome" {
                switch result {
                case .success: r.ours = "ok"
                case .failure(let e):
                    let kind = e.problem == .checksum ? "crc" : e.problem == .header ? "header" : e.problem == .truncated ? "eof" : e.problem.rawValue
                    r.ours = "error:\(kind)"
                }
                r.tolerance = "exact (`error` matches any error)"
                let ours = r.ours ?? ""
                r.verdict = ours == r.expected || (r.expected == "error" && ours.hasPrefix("error")) ? "pass" : "fail"
                continue
            }
            guard case .success(let activities) = result else { r.ours = "read error"; r.verdict = "fail"; continue }
            let index = r.activityIndex ?? 0
            guard index < activities.count else { r.ours = "no activity \(index)"; r.verdict = activities.isEmpty ? "fail" : "fail"; continue }
            let a = activities[index]
            let key = r.file + "#\(index)"
            // The run record as `runus track` gives it: the device's readings where sound (record 0116).
            let m = metricsCache[key] ?? RunMetrics(track: a.track)
            metricsCache[key] = m
            // A record of fixes or of the device's readings (a treadmill); a file with neither has none.
            let recorded = m.profile.times.count >= 2
            let t = a.deviceTotals
            let hrs = a.track.points.compactMap(\.heartRate), cads = a.track.points.compactMap(\.cadence)
            var ours: Double? = nil, device: Double? = nil, suiteDef: Double? = nil
            let elevations = a.track.points.compactMap(\.elevation)
            switch r.quantity {
            case "distance_m": ours = recorded ? m.distance : nil; device = t.distance
                // sports-lib without a device total: every step between consecutive fixes, no pause, no cleaning.
                if r.suite == "sports-lib", a.track.points.count > 1 {
                    let p = a.track.points
                    suiteDef = zip(p, p.dropFirst()).reduce(0) { $0 + Geodesy.distance(latitude1: $1.0.latitude, longitude1: $1.0.longitude,
                                                                                        latitude2: $1.1.latitude, longitude2: $1.1.longitude) }
                }
            case "elapsed_time_s": ours = recorded ? m.elapsed : nil; device = t.elapsedTime
            case "moving_time_s": ours = recorded ? m.moving : nil; device = t.movingTime
            case "timer_time_s": device = t.timerTime
            case "ascent_m", "descent_m":
                let up = r.quantity == "ascent_m"
                ours = a.track.points.isEmpty ? nil : up ? m.elevationGain : m.elevationLoss
                device = up ? t.ascent : t.descent
                // tcxparser: every positive (negative) step between consecutive altitudes, no smoothing.
                if r.suite == "tcxparser", elevations.count > 1 {
                    suiteDef = zip(elevations, elevations.dropFirst()).reduce(0) { $0 + max(0, up ? $1.1 - $1.0 : $1.0 - $1.1) }
                }
            case "avg_hr": ours = m.averageHeartRate; device = t.averageHeartRate
                // sports-lib and tcxparser average the samples (tcxparser then truncates: int(mean)).
                if !hrs.isEmpty {
                    let mean = hrs.reduce(0, +) / Double(hrs.count)
                    suiteDef = r.suite == "tcxparser" ? mean.rounded(.down) : mean
                }
            case "max_hr": ours = hrs.max(); device = t.maximumHeartRate
            case "avg_cadence": ours = cads.isEmpty ? nil : cads.reduce(0, +) / Double(cads.count); device = t.averageCadence
            case "max_cadence": ours = cads.max(); device = t.maximumCadence
            case "avg_pace_s_per_km": ours = m.movingPace
                device = t.distance.flatMap { d in t.timerTime.flatMap { Pace.secondsPerKm(distance: d, duration: $0) } }
            case "energy_kcal": device = t.calories
            case "n_laps": device = Double(a.laps.count)
            default: break
            }
            r.ours = ours.map { FixedDecimals.text($0, 1) }
            r.device = device.map { FixedDecimals.text($0, 1) }
            r.suiteDefinition = suiteDef.map { FixedDecimals.text($0, 1) }
            if r.suiteTolerance == "absent" {
                r.tolerance = "absent"
                r.verdict = ours == nil && device == nil ? "pass" : "fail"
                continue
            }
            guard let expected = Double(r.expected), ours != nil || device != nil else {
                r.verdict = "n/a"
                continue
            }
            let (tol, label) = tolerance(r.quantity, expected: expected, suite: r.suiteTolerance)
            r.tolerance = label
            if let o = ours, abs(o - expected) <= tol + 1e-9 { r.verdict = "pass" }
            else if let d = device, abs(d - expected) <= tol + 1e-9 { r.verdict = "pass (device)" }
            else if let d = suiteDef, abs(d - expected) <= tol + 1e-9 { r.verdict = "pass (suite definition)" }
            else { r.verdict = "fail" }
        }
        return rows
    }

    public static func markdown(_ rows: [ReferenceRow]) -> String {
        var s = "| file | act | quantity | expected | ours | device | suite definition | tolerance | verdict |\n|---|---|---|---|---|---|---|---|---|\n"
        for r in rows {
            s += "| \(r.file) | \(r.activityIndex.map(String.init) ?? "") | \(r.quantity) | \(r.expected) | \(r.ours ?? "–") | \(r.device ?? "–") | \(r.suiteDefinition ?? "–") | \(r.tolerance) | \(r.verdict) |\n"
        }
        return s
    }

    public static func summary(_ rows: [ReferenceRow]) -> String {
        var byVerdict: [String: Int] = [:]
        for r in rows { byVerdict[r.verdict, default: 0] += 1 }
        var perQuantity: [String: (pass: Int, device: Int, suite: Int, fail: Int)] = [:]
        for r in rows where r.verdict != "n/a" {
            var e = perQuantity[r.quantity] ?? (0, 0, 0, 0)
            if r.verdict == "pass" { e.pass += 1 } else if r.verdict == "pass (device)" { e.device += 1 }
            else if r.verdict == "pass (suite definition)" { e.suite += 1 } else { e.fail += 1 }
            perQuantity[r.quantity] = e
        }
        var s = "rows \(rows.count): " + byVerdict.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
        s += "| quantity | pass (our metric) | pass (device total read) | pass (suite definition) | fail |\n|---|---|---|---|---|\n"
        for (q, e) in perQuantity.sorted(by: { $0.key < $1.key }) { s += "| \(q) | \(e.pass) | \(e.device) | \(e.suite) | \(e.fail) |\n" }
        return s
    }
}
