import Testing
import Foundation
import RunusCore
import Tracking
@testable import RunusCLI

/// `runus track` (issue 3, item 6): the run record of synthetic tracks written as CSV files.
@Suite("runus track")
struct TrackCommandTests {
    /// Local distance of a straight constructed track against its construction: far below a
    /// metre per km, plus the jitter filter's last chord at the end (record 0150).
    static let distanceTolerance: Meters = 5

    /// Heart rate in bpm at second i of `csv`: rising 1 bpm per 30 s from 120.
    static func heartRate(_ i: Int) -> Int { 120 + i / 30 }

    /// A straight 1 Hz track: `seconds` at `speed` m/s, heart rate `heartRate(i)`, cadence
    /// 170 spm, as CSV text.
    static func csv(seconds: Int, speed: Double, start: EpochSeconds = 1_780_000_000) -> String {
        var lines = ["t,lat,lon,ele,hr,cad"]
        for i in 0...seconds {
            let p = Geodesy.destination(latitude: 45.76, longitude: 4.84, bearing: 20, distance: Double(i) * speed)
            lines.append("\(start + Double(i)),\(p.latitude),\(p.longitude),170,\(heartRate(i)),170")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) { runCLI(arguments) }

    @Test("progress over several files is a line per tenth when stderr is not a terminal: no carriage returns in a log")
    func progressWithoutCarriageReturns() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        for k in 0..<3 { try Self.csv(seconds: 120, speed: 3).write(toFile: dir.file("run\(k).csv"), atomically: true, encoding: .utf8) }
        let r = run(["track", dir.file("run0.csv"), dir.file("run1.csv"), dir.file("run2.csv")])
        #expect(r.code == .success, "\(r.err)")
        #expect(!r.err.contains("\r"))
        #expect(r.err.contains("files: 3/3 (100 %)"))
    }

    @Test("--json writes the issue's keys: distance, times, pace, km and mile splits, best efforts, heart rate, cadence, segments")
    func jsonRecord() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        // 2,100 s at 4 m/s: 8.4 km, so 8 full km splits, 5 full miles, and no 10 km effort.
        try Self.csv(seconds: 2100, speed: 4).write(toFile: dir.file("run.csv"), atomically: true, encoding: .utf8)
        let r = run(["track", "--json", "--weight", "70", dir.file("run.csv")])
        #expect(r.code == .success, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 1)
        let record = try JSONParser.parse(Array(lines[0].utf8))
        let distance = try #require(record["distance_m"]?.doubleValue)
        #expect(abs(distance - 8400) < Self.distanceTolerance, "distance \(distance)")
        #expect(record["elapsed_s"]?.doubleValue == 2100)
        #expect(abs((record["moving_s"]?.doubleValue ?? 0) - 2100) <= 1)
        #expect(abs((record["elapsed_pace_s_per_km"]?.doubleValue ?? 0) - 250) < 0.5)
        #expect(abs((record["moving_pace_s_per_km"]?.doubleValue ?? 0) - 250) < 0.5)
        let splits = try #require(record["splits"]?.arrayValue)
        #expect(splits.count == 9)
        #expect(splits.first?["distance_m"]?.doubleValue == 1000)
        #expect(abs((splits.first?["moving_s"]?.doubleValue ?? 0) - 250) < 1)
        #expect(abs((splits.first?["moving_pace_s_per_km"]?.doubleValue ?? 0) - 250) < 1)
        let miles = try #require(record["mile_splits"]?.arrayValue)
        #expect(miles.count == 6)
        #expect(miles.first?["distance_m"]?.doubleValue == RunMetrics.mile)
        let efforts = try #require(record["best_efforts"]?.arrayValue)
        #expect(efforts.compactMap { $0["distance_m"]?.doubleValue } == [400, 1000, RunMetrics.mile, 3000, 5000])
        for e in efforts {
            let d = e["distance_m"]!.doubleValue!, t = e["elapsed_s"]!.doubleValue!
            #expect(abs(t - d / 4) < 1, "best \(d) m in \(t) s")
        }
        #expect(record["elevation_gain_m"]?.doubleValue == 0 && record["elevation_loss_m"]?.doubleValue == 0)
        #expect(abs((record["calories_kcal"]?.doubleValue ?? 0) - MetricsConfiguration.default.runningCostKcalPerKgKm * 70 * distance / 1000) < 1e-6)
        #expect(record["max_hr"]?.doubleValue == Double(Self.heartRate(2100)))
        // Time-weighted mean of each second's two ends (RunMetrics.averageHeartRate).
        let expectedHR = (1...2100).map { Double(Self.heartRate($0 - 1) + Self.heartRate($0)) / 2 }.reduce(0, +) / 2100
        let avgHR = try #require(record["avg_hr"]?.doubleValue)
        #expect(abs(avgHR - expectedHR) < 1e-9, "avg hr \(avgHR), expected \(expectedHR)")
        #expect(record["avg_cadence_spm"]?.doubleValue == 170)
        #expect(record["max_cadence_spm"]?.doubleValue == 170)
        let segments = try #require(record["segments"]?.arrayValue)
        #expect(segments.compactMap { $0["activity"]?.stringValue } == ["run"], "\(segments)")
        #expect(segments.first?["start_offset_s"]?.doubleValue == 0 && segments.first?["end_offset_s"]?.doubleValue == 2100)
    }

    @Test("a drive between two runs shows as a vehicle segment and is left out of the distance")
    func vehicleSegment() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        // 600 s at 3 m/s, 300 s at 15 m/s, 600 s at 3 m/s, one straight line at 1 Hz.
        var lines = ["t,lat,lon,ele,hr,cad"]
        var north: Meters = 0
        for i in 0...1500 {
            if i > 0 { north += (600..<900).contains(i - 1) ? 15 : 3 }
            let p = Geodesy.destination(latitude: 45.76, longitude: 4.84, bearing: 0, distance: north)
            lines.append("\(1_780_000_000 + i),\(p.latitude),\(p.longitude),,,")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir.file("drive.csv"), atomically: true, encoding: .utf8)
        let r = run(["track", "--json", dir.file("drive.csv")])
        #expect(r.code == .success, "\(r.err)")
        let record = try JSONParser.parse(Array(r.out.split(separator: "\n")[0].utf8))
        let segments = try #require(record["segments"]?.arrayValue)
        let vehicle = segments.filter { $0["activity"]?.stringValue == "vehicle" }
        #expect(vehicle.count == 1, "\(segments)")
        let path = try #require(vehicle.first?["path_m"]?.doubleValue)
        // The drive's 4,500 m, give or take a window half-width (5 s) of driving at each end.
        #expect(abs(path - 4500) <= 2 * 5 * 15 + 1, "vehicle path \(path)")
        // Timed from the record's start (the first fix here): the drive is 600 s to 900 s in.
        let from = try #require(vehicle.first?["start_offset_s"]?.doubleValue), to = try #require(vehicle.first?["end_offset_s"]?.doubleValue)
        #expect(abs(from - 600) <= 5 && abs(to - 900) <= 5, "vehicle \(from)…\(to) s")
        let distance = try #require(record["distance_m"]?.doubleValue)
        #expect(abs(distance - 3600) <= 2 * 5 * 15 + Self.distanceTolerance, "distance \(distance)")
    }

    @Test("the table has a header and a line per activity; a bad file is named and fails the command; metrics is an alias")
    func tableAndErrors() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        try Self.csv(seconds: 600, speed: 3).write(toFile: dir.file("a.csv"), atomically: true, encoding: .utf8)
        try Self.csv(seconds: 300, speed: 3).write(toFile: dir.file("b.csv"), atomically: true, encoding: .utf8)
        try "t,lat,lon\n1,north,east\n".write(toFile: dir.file("c.csv"), atomically: true, encoding: .utf8)
        let r = run(["track", dir.path])
        #expect(r.code == .failure)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 3, "\(r.out)")
        #expect(lines[0].contains("distance") && lines[0].contains("moving pace"))
        // 1.80 km in 600 s: the moving pace, 5:33/km (the daemon's pace, record 0533).
        #expect(lines[1].contains("5:33/km"), "\(lines[1])")
        #expect(lines[1].contains("1.80 km") && lines[1].hasSuffix("a.csv"), "\(lines[1])")
        #expect(lines[2].contains("0.90 km") && lines[2].hasSuffix("b.csv"), "\(lines[2])")
        #expect(r.err.contains(dir.file("c.csv")), "\(r.err)")
        #expect(r.err.contains("files: 3/3 (100 %)") && !r.err.contains("\r"), "progress lines on stderr (not a terminal): \(r.err)")
        let quiet = run(["track", "--quiet", dir.file("a.csv"), dir.file("b.csv")])
        #expect(quiet.code == .success && quiet.err.isEmpty, "\(quiet.err)")
        let alias = run(["metrics", "--json", dir.file("a.csv")])
        #expect(alias.code == .success && alias.out == run(["track", "--json", dir.file("a.csv")]).out)
        #expect(run(["track"]).code == .usage)
    }
}
