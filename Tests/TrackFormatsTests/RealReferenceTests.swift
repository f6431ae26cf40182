import Foundation
import Testing
import RunusCore
import Tracking
@testable import TrackFormats

/// The shared datasets: `RUNUS_DATASETS` or `../shared/datasets` next to the package root.
enum SharedData {
    static let root: String = {
        if let env = ProcessInfo.processInfo.environment["RUNUS_DATASETS"] { return env }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent("../shared/datasets").standardized.path
    }()
    /// Tests on real files skip (are disabled) when the reference folder is absent.
    static let hasReference = FileManager.default.fileExists(atPath: root + "/reference/expected.csv")
    static let hasRawGPX = FileManager.default.fileExists(atPath: root + "/runners/raw-gpx/index.csv")

    static func bytes(_ relative: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: root + "/" + relative) ?? Data())
    }
    static func lines(_ relative: String) -> [[String]] {
        String(decoding: bytes(relative), as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }
}

@Suite("Real reference files (skipped without ../shared/datasets)")
struct RealReferenceTests {
    /// sports-lib rejects a 31-day activity by its own policy (record 0114); the file is valid.
    static let policyRejections: Set<String> = ["sports-lib/fixtures/others/31-days-activity.fit"]

    @Test(.enabled(if: SharedData.hasReference, "needs ../shared/datasets/reference"))
    func parseOutcomesMatchTheSuites() throws {
        let rows = SharedData.lines("reference/expected.csv").filter { $0.count > 3 && $0[2] == "parse_outcome" }
        #expect(rows.count >= 70)
        for row in rows where !Self.policyRejections.contains(row[0]) {
            let name = row[0], expected = row[3]
            let outcome: String
            do {
                _ = try TrackFileReader.read(SharedData.bytes("reference/" + name), name: name)
                outcome = "ok"
            } catch {
                #expect(error.file == name && !error.message.isEmpty)
                outcome = "error:" + [TrackReadProblem.checksum: "crc", .header: "header", .truncated: "eof"][error.problem, default: error.problem.rawValue]
            }
            #expect(outcome == expected || (expected == "error" && outcome.hasPrefix("error")), "\(name): \(outcome), suite says \(expected)")
        }
    }

    @Test(.enabled(if: SharedData.hasReference, "needs ../shared/datasets/reference"))
    func oneActivityInThreeFormatsGivesTheSameFixes() throws {
        let dir = "reference/sports-lib/fixtures/runs/"
        let fit = try FITReader.read(SharedData.bytes(dir + "fit/6782987395.fit"), name: "fit")[0].track.points
        let gpx = try GPXReader.read(SharedData.bytes(dir + "gpx/6782987395.gpx"), name: "gpx").track.points
        let tcx = try TCXReader.read(SharedData.bytes(dir + "tcx/6782987395.tcx"), name: "tcx")[0].track.points
        #expect(fit.count == gpx.count && abs(tcx.count - fit.count) <= 1)
        for (a, b) in zip(fit, gpx) {
            #expect(a.time == b.time)
            // GPX writes 7 decimals of the FIT semicircles (8.4e-8°): half a unit of the 7th decimal plus one semicircle.
            #expect(abs(a.latitude - b.latitude) < 1e-7 && abs(a.longitude - b.longitude) < 1e-7)
            #expect(a.heartRate == b.heartRate)
        }
    }

    @Test(.enabled(if: SharedData.hasReference, "needs ../shared/datasets/reference"))
    func fitRecordsMatchFitparseTruthTables() throws {
        for name in ["garmin-edge-500-activity", "garmin-edge-820-bike", "garmin-fenix-5-bike", "garmin-fenix-5-run", "garmin-fenix-5-walk"] {
            let rows = SharedData.lines("reference/fitparse/files/\(name)-records.csv")
            let header = rows[0]
            let (cHR, cLat, cLon, cAlt) = (header.firstIndex(of: "heart_rate")!, header.firstIndex(of: "position_lat")!,
                                           header.firstIndex(of: "position_long")!, header.firstIndex(of: "altitude")!)
            let cDistance = header.firstIndex(of: "distance")!
            let truth = Array(rows.dropFirst().filter { $0.count == header.count })
            let bytes = SharedData.bytes("reference/fitparse/files/\(name).fit")
            let fixes = try bytes.withUnsafeBufferPointer { b in
                var decoder = FITDecoder(b)
                try decoder.decodeAll()
                return decoder.fixes()
            }
            #expect(fixes.count == truth.count, "\(name): one CSV row per record message")
            var previous: [String]? = nil
            for (fix, row) in zip(fixes, truth) {
                defer { previous = row }
                // The device's distance reading (record 0116): fitparse gives metres, we read 1/100 m.
                if let d = Double(row[cDistance]), fix.time.isFinite {
                    #expect(fix.reading.map { abs($0.distance - d) < 1e-9 } == true, "\(name): distance \(d)")
                } else {
                    #expect(fix.reading == nil, "\(name)")
                }
                guard let p = fix.point else {
                    // The truth CSV carries the last position forward over records that have none.
                    #expect(row[cLat] == previous?[cLat] && row[cLon] == previous?[cLon], "\(name)")
                    continue
                }
                // Exact up to the double rounding of semicircles → degrees.
                #expect(abs(p.latitude - Double(row[cLat])! * 180 / 2_147_483_648) < 1e-12)
                #expect(abs(p.longitude - Double(row[cLon])! * 180 / 2_147_483_648) < 1e-12)
                #expect(p.heartRate == Double(row[cHR]))
                if let alt = Double(row[cAlt]) { #expect(abs(p.elevation! - alt) < 1e-6) }
            }
        }
    }

    @Test(.enabled(if: SharedData.hasRawGPX, "needs ../shared/datasets/runners/raw-gpx"))
    func rawGPXAgreesWithTheShippedCSVTracks() throws {
        let index = SharedData.lines("runners/raw-gpx/index.csv")
        for row in index.dropFirst() where row.count > 3 {
            let gpx = try TrackFileReader.read(SharedData.bytes("runners/raw-gpx/" + row[2]), name: row[2]).activities[0]
            #expect(gpx.recordCount == Int(row[3]), "\(row[2])")
            let csvPath = "runners/tracks/\(row[0])/\(row[1]).csv.gz"
            guard FileManager.default.fileExists(atPath: SharedData.root + "/" + csvPath) else { continue }
            let csv = try TrackFileReader.read(SharedData.bytes(csvPath), name: csvPath).activities[0]
            #expect(csv.track.points.count == gpx.track.points.count, "\(row[2])")
            for (a, b) in zip(gpx.track.points, csv.track.points) {
                #expect(a.time == b.time)
                // The CSV rounds positions to 7 decimals.
                #expect(abs(a.latitude - b.latitude) <= 5.1e-8 && abs(a.longitude - b.longitude) <= 5.1e-8)
                #expect(a.heartRate == b.heartRate)
            }
        }
    }
}
