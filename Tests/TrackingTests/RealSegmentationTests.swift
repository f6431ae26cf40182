import Foundation
import Testing
import RunusCore
import ActivityLab
@testable import Tracking

/// The shared datasets folder: $RUNUS_DATASETS, else ../shared/datasets from the package root.
enum SharedDatasets {
    static var root: String {
        if let path = ProcessInfo.processInfo.environment["RUNUS_DATASETS"] { return path }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent("../shared/datasets").standardizedFileURL.path
    }
    static var transport: String { root + "/transport/points.csv.gz" }
    static var hasTransport: Bool { FileManager.default.fileExists(atPath: transport) }

    /// The first `lines` lines of a gzip file, via the system's gzip and head.
    static func gunzip(_ path: String, lines: Int? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -dc \"$0\"" + (lines.map { " | head -n \($0)" } ?? ""), path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

// Skipped when the shared datasets are absent (they are never part of the repository).
@Suite("Activity segmentation on real labelled data", .enabled(if: SharedDatasets.hasTransport,
       "needs the GeoLife points in $RUNUS_DATASETS/transport (absent here)"))
struct RealSegmentationTests {
    /// A smoke check in a debug build: GeoLife's first 80,000 points (users 010 and 020, the
    /// two with walks labelled, then the next users) and a few runners' runs, scored with the
    /// shipped synthetic-trained classifier, which never saw real data. The full held-out figure
    /// is `make segmentation-report` (record 0145).
    @Test("the shipped classifier tells foot from vehicle on real segments")
    func footVersusVehicle() throws {
        var tracks = try LabelledTrackParser.geoLifePoints(try SharedDatasets.gunzip(SharedDatasets.transport, lines: 80_000))
        let runs = SharedDatasets.root + "/runners/tracks/runner_c"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? []).sorted().prefix(6)
        for file in files {
            let track = try LabelledTrackParser.trackCSV(try SharedDatasets.gunzip(runs + "/" + file))
            tracks.append(LabelledTrack(person: "runner_c", activity: .run, track: track))
        }
        let scores = SegmentationEvaluation.score(tracks, classifier: .default)
        let binary = scores.segments.footVsVehicle(excludingStationary: true)
        // Floors well under the full report's figures (shipped forest, all real tracks: foot 0.876, vehicle 0.934 per segment, record 0148):
        // this subset is small, so one segment moves F1 by about 0.01.
        #expect(binary.footF1 >= 0.8, "\(scores.segments.table)")
        #expect(binary.vehicleF1 >= 0.85, "\(scores.segments.table)")
    }
}
