import Testing
import Foundation
import RunusCore
import Tracking
import Missions
@testable import RunusCLI

/// `runus mission check|kinds` (record 0321): synthetic tracks written as CSV and GPX files.
@Suite("runus mission")
struct MissionCommandTests {
    /// A straight 1 Hz track of legs at constant pace (distance m, pace s/km), as CSV text.
    static func csv(_ legs: [(Meters, SecondsPerKm)], start: EpochSeconds = 1_780_000_000) -> String {
        var lat = 52.52, lon = 13.405, t = start
        var lines = ["t,lat,lon,ele,hr,cad", "\(t),\(lat),\(lon),40,,"]
        for (distance, pace) in legs {
            let speed = 1000 / pace
            var covered = 0.0
            while covered < distance - 1e-9 {
                let step = min(speed, distance - covered)
                let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: 75, distance: step)
                lat = p.latitude; lon = p.longitude; t += step / speed; covered += step
                lines.append("\(t),\(lat),\(lon),40,,")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) { runCLI(arguments) }

    @Test("kinds --json lists every kind with the parameters the validation uses, an example and its title")
    func kindsJSON() throws {
        let r = run(["mission", "kinds", "--json"])
        #expect(r.code == .success)
        let lines = r.out.split(separator: "\n").map { try! JSONParser.parse(Array($0.utf8)) }
        #expect(lines.compactMap { $0["kind"]?.stringValue } == MissionKind.allCases.map(\.rawValue))
        for line in lines {
            let kind = try #require(MissionKind(rawValue: line["kind"]?.stringValue ?? ""))
            let example = try MissionSpec(json: try #require(line["example"]))
            #expect(example == kind.example)
            #expect(line["title"]?.stringValue == MissionTitle.title(for: example))
            let parameters = try #require(line["parameters"]?.arrayValue)
            #expect(parameters.compactMap { $0["name"]?.stringValue } == MissionSpec.parameters(of: kind).map(\.name))
            // The listed ranges are the validated ones: the bounds pass, just beyond is refused
            // with the parameter named.
            for p in parameters {
                let name = try #require(p["name"]?.stringValue)
                let low = try #require(p["min"]?.doubleValue), high = try #require(p["max"]?.doubleValue)
                let step = p["type"]?.stringValue == "integer" ? 1.0 : high * 1e-6
                for (value, valid) in [(low, true), (high, true), (low - step, false), (high + step, false)] {
                    var members = try #require(example.json.objectValue)
                    members[name] = .number(value)
                    do {
                        _ = try MissionSpec(json: .object(members))
                        #expect(valid, "\(kind.rawValue).\(name) = \(value) was accepted")
                    } catch let error as MissionSpecError {
                        #expect(!valid, "\(kind.rawValue).\(name) = \(value): \(error)")
                        #expect(error == .outOfRange(parameter: name, value: value, allowed: low...high))
                    }
                }
                #expect(p["default"] != nil && p["unit"]?.stringValue?.isEmpty == false)
            }
        }
    }

    @Test("kinds prints a table per kind for people")
    func kindsTable() {
        let r = run(["mission", "kinds"])
        #expect(r.code == .success)
        #expect(r.out.contains("intervals\n  parameter"))
        #expect(r.out.contains("max_recovery_s"))
        #expect(r.out.contains("title:   4 × 400 m at 4:30/km or faster, rests up to 3:00"))
        #expect(run(["mission", "kinds", "--mission", "{}"]).code == .usage)
    }

    @Test("check: verdict, progress and evidence per activity, as a table and as JSON; gzip too")
    func check() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        try Self.csv([(2500, 310), (2500, 290)]).write(toFile: dir.file("negative.csv"), atomically: true, encoding: .utf8)
        try Self.csv([(2500, 290), (2500, 310)]).write(toFile: dir.file("positive.csv"), atomically: true, encoding: .utf8)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", dir.file("positive.csv")]
        try gzip.run(); gzip.waitUntilExit()
        let mission = #"{"kind":"negative_split","min_distance_m":5000}"#
        let json = run(["mission", "check", "--mission", mission, "--json", dir.file("negative.csv"), dir.file("positive.csv.gz")])
        #expect(json.code == .success, "\(json.err)")
        let answers = json.out.split(separator: "\n").map { try! JSONParser.parse(Array($0.utf8)) }
        #expect(answers.count == 2)
        #expect(answers[0]["status"] == "completed" && answers[0]["progress"] == 1)
        #expect(answers[0]["evidence"]?.arrayValue?.last == "first half 12:55, second half 12:05")
        #expect(answers[1]["status"] == "failed")
        #expect((answers[1]["progress"]?.doubleValue ?? 1) < 1)
        #expect(answers[1]["title"] == "Run 5.0 km with a faster second half")
        let table = run(["mission", "check", "--mission", mission, dir.file("negative.csv")])
        #expect(table.code == .success)
        #expect(table.out.contains("\tcompleted\t100 %\t-\n"))
        #expect(table.out.contains("    first half 12:55, second half 12:05\n"))
    }

    @Test("check: history files feed the multi-run kinds; later history runs do not count")
    func history() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let today: EpochSeconds = 1_780_000_000
        try FileManager.default.createDirectory(atPath: dir.file("history"), withIntermediateDirectories: true)
        try Self.csv([(3000, 330)], start: today - 86_400).write(toFile: dir.file("history/1.csv"), atomically: true, encoding: .utf8)
        try Self.csv([(3000, 330)], start: today - 2 * 86_400).write(toFile: dir.file("history/2.csv"), atomically: true, encoding: .utf8)
        try Self.csv([(3000, 330)], start: today).write(toFile: dir.file("today.csv"), atomically: true, encoding: .utf8)
        let streak = #"{"kind":"streak","days":3}"#
        func status(_ extra: [String]) -> String? {
            let r = run(["mission", "check", "--mission", streak, "--json"] + extra + [dir.file("today.csv")])
            return try? JSONParser.parse(Array(r.out.utf8))["status"]?.stringValue
        }
        #expect(status(["--time-zone", "UTC", "--history", dir.file("history")]) == "completed")
        #expect(status(["--time-zone", "UTC"]) != "completed")
        // The checked run is its own history's last run: only earlier runs count.
        let pb = run(["mission", "check", "--mission", #"{"kind":"personal_best","distance_m":1000}"#, "--json",
                      "--history", dir.file("history"), "--history", dir.file("today.csv"), dir.file("today.csv")])
        #expect(try JSONParser.parse(Array(pb.out.utf8))["status"] == "failed")  // same pace as before: not faster
    }

    @Test("errors name the bad value: unknown kind, out-of-range parameter, JSON syntax, unreadable file")
    func errors() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        try Self.csv([(1000, 300)]).write(toFile: dir.file("ok.csv"), atomically: true, encoding: .utf8)
        try "t,lat,lon\n1780000000,52.5,13.4\n1780000001,95.5,13.4\n".write(toFile: dir.file("bad.csv"), atomically: true, encoding: .utf8)
        let unknown = run(["mission", "check", "--mission", #"{"kind":"marathon"}"#, dir.file("ok.csv")])
        #expect(unknown.code == .usage && unknown.err.contains(#"unknown kind "marathon""#))
        let range = run(["mission", "check", "--mission", #"{"kind":"distance","distance_m":5}"#, dir.file("ok.csv")])
        #expect(range.code == .usage && range.err.contains(#""distance_m" = 5.0 is outside [100.0, 100000.0]"#))
        let syntax = run(["mission", "check", "--mission", #"{"kind":"distance",}"#, dir.file("ok.csv")])
        #expect(syntax.code == .usage && syntax.err.contains("invalid JSON at byte"))
        let files = run(["mission", "check", "--mission", #"{"kind":"distance","distance_m":500}"#, "--json",
                         dir.file("missing.csv"), dir.file("bad.csv"), dir.file("ok.csv")])
        #expect(files.code == .failure)
        #expect(files.err.contains(dir.file("missing.csv")))
        #expect(files.err.contains(dir.file("bad.csv")) && files.err.contains("line 3"), "\(files.err)")
        #expect(files.out.split(separator: "\n").count == 1)   // ok.csv is still checked
        #expect(run(["mission", "check", dir.file("ok.csv")]).code == .usage)
        #expect(run(["mission", "fly"]).code == .usage)
    }
}
