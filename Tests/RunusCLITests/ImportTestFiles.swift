import Foundation
import RunusCore
import Tracking
@testable import Simulation

/// Small writers for import tests: synthetic tracks from the simulator's `TrackSynthesizer`
/// written as GPX or dataset-style CSV, gzip through /bin/gzip (the product reads gzip only).
enum ImportTestFiles {
    /// A simulated runner's track: `distance` metres at `pace` s/km, starting at `start`; `drive`
    /// adds a car leg before the run. Fixed seed per call.
    static func track(seed: UInt64, distance: Meters, pace: SecondsPerKm, start: EpochSeconds,
                      drive: Meters = 0) -> Track {
        var rng = SeededGenerator(seed: seed)
        let traits = RunnerTraits.draw(index: Int(seed % 50), rng: &rng)
        var legs: [RunPlan.Leg] = []
        if drive > 0 { legs.append(RunPlan.Leg(distance: drive, pace: 90, mode: .drive)) }
        legs.append(RunPlan.Leg(distance: distance, pace: pace, mode: .run))
        return TrackSynthesizer(traits: traits).track(plan: RunPlan(legs: legs), start: start, rng: &rng)
    }

    static func gpx(_ track: Track, type: String?) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"runus tests\" "
            + "xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk>\n"
        if let type { s += "<type>\(type)</type>\n" }
        s += "<trkseg>\n"
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for p in track.points {
            s += "<trkpt lat=\"\(p.latitude)\" lon=\"\(p.longitude)\">"
            if let e = p.elevation { s += "<ele>\(e)</ele>" }
            s += "<time>\(iso.format(Date(timeIntervalSince1970: p.time)))</time></trkpt>\n"
        }
        return s + "</trkseg>\n</trk>\n</gpx>\n"
    }

    /// The dataset's track CSV: `t,lat,lon,ele,hr,cad`.
    static func csv(_ track: Track) -> String {
        var s = "t,lat,lon,ele,hr,cad\n"
        for p in track.points {
            s += "\(p.time),\(p.latitude),\(p.longitude),\(p.elevation.map { "\($0)" } ?? ""),,\n"
        }
        return s
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Writes `text` gzip-compressed to `path` (which ends in .gz).
    static func writeGzip(_ text: String, to path: String) throws {
        precondition(path.hasSuffix(".gz"), "writeGzip: \(path) must end in .gz")
        let plain = String(path.dropLast(3))
        try write(text, to: plain)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", "-f", plain]
        try process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "gzip failed on \(plain)")
    }
}
