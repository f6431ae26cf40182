import Testing
import Foundation
import RunusCore
@testable import RunusCLI

/// `runus track` and `runus mission check` on files without positions (records 0116, 0232):
/// the record says where its distance comes from and the device's readings count.
@Suite("runus track and mission check on indoor files")
struct TrackCommandIndoorTests {
    /// A TCX treadmill run: `seconds` trackpoints at 1 Hz with `DistanceMeters` (2.8 m/s) and
    /// no position; `readings` false writes the lap's totals only.
    static func tcx(seconds: Int = 1200, readings: Bool = true) -> String {
        var xml = "<?xml version=\"1.0\"?><TrainingCenterDatabase><Activities><Activity Sport=\"Running\">"
        xml += "<Lap StartTime=\"2026-01-05T07:00:00Z\"><TotalTimeSeconds>\(seconds)</TotalTimeSeconds>"
        xml += "<DistanceMeters>\(Double(seconds) * 2.8)</DistanceMeters><Calories>250</Calories><Track>"
        if readings {
            for s in 0...seconds {
                let time = String(format: "2026-01-05T07:%02d:%02dZ", s / 60, s % 60)
                xml += "<Trackpoint><Time>\(time)</Time><DistanceMeters>\(Double(s) * 2.8)</DistanceMeters></Trackpoint>"
            }
        }
        return xml + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
    }

    @Test("--json and the table name the source: the readings of a treadmill file, the lap totals of a file without them")
    func trackShowsTheSource() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        try Self.tcx().write(toFile: dir.file("treadmill.tcx"), atomically: true, encoding: .utf8)
        try Self.tcx(readings: false).write(toFile: dir.file("laps.tcx"), atomically: true, encoding: .utf8)
        let r = runCLI(["track", "--json", "--quiet", dir.file("treadmill.tcx"), dir.file("laps.tcx")])
        #expect(r.code == .success, "\(r.err)")
        let records = try r.out.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        #expect(records.count == 2)
        #expect(records[0]["distance_source"] == "device" && records[0]["distance_m"] == 3360 && records[0]["device_readings"] == 1201)
        #expect(records[0]["gps_distance_m"] == .null && records[0]["splits"]?.arrayValue?.count == 4)
        #expect(records[1]["distance_source"] == "summary" && records[1]["distance_m"] == 3360 && records[1]["elapsed_s"] == 1200)
        let table = runCLI(["track", "--quiet", dir.file("treadmill.tcx")])
        let lines = table.out.split(separator: "\n")
        #expect(lines.first?.contains("from") == true && lines.count == 2 && lines[1].contains(" device "), "\(table.out)")
    }

    @Test("mission check: distance is decided on the readings, hills cannot be checked and says why")
    func missionCheck() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        try Self.tcx().write(toFile: dir.file("treadmill.tcx"), atomically: true, encoding: .utf8)
        let distance = runCLI(["mission", "check", "--json", "--mission", "{\"kind\":\"distance\",\"distance_m\":3000}", dir.file("treadmill.tcx")])
        let d = try JSONParser.parse(Array(distance.out.utf8))
        #expect(d["status"] == "completed" && d["distance_source"] == "device" && d["cannot_check"] == .null, "\(distance.out)\(distance.err)")
        let hills = runCLI(["mission", "check", "--json", "--mission", "{\"kind\":\"hills\",\"min_ascent_m\":50}", dir.file("treadmill.tcx")])
        let h = try JSONParser.parse(Array(hills.out.utf8))
        #expect(h["status"] == "not_applicable" && h["cannot_check"]?.stringValue?.contains("no positions") == true, "\(hills.out)")
    }
}
