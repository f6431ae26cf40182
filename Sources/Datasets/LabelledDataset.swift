import Foundation
import RunusCore
import Tracking
import TrackFormats
import ActivityLab
import Training

/// Reads the labelled tracks of the evaluation from the dataset folder (read-only).
public enum LabelledDataset {
    /// GeoLife's labelled segments and up to `perSport` runner activities per runner and sport,
    /// drawn with `seed`.
    public static func load(root: String, perSport: Int, seed: UInt64,
                            progress: (any ProgressReporter)? = nil) throws -> [LabelledTrack] {
        let geoLife = root + "/transport/points.csv.gz"
        guard FileManager.default.fileExists(atPath: geoLife) else {
            throw DatasetError("\(geoLife): not found; pass --datasets DIR or set RUNUS_DATASETS")
        }
        var tracks = try LabelledTrackParser.geoLifePoints(try gunzip(geoLife))
        let activities = root + "/runners/activities.csv"
        let text = try String(contentsOfFile: activities, encoding: .utf8)
        let lines = text.split(separator: "\n")
        guard let header = lines.first.map(LabelledTrackParser.fields) else { throw DatasetError("\(activities): empty") }
        func column(_ name: String) throws -> Int {
            guard let i = header.firstIndex(of: Substring(name)) else { throw DatasetError("\(activities): no column '\(name)'") }
            return i
        }
        let runnerC = try column("runner"), idC = try column("activity_id"), sportC = try column("sport")
        let statusC = try column("track_status")
        var byGroup: [String: [(runner: String, id: String, activity: ActivityClass)]] = [:]
        for line in lines.dropFirst() {
            let f = LabelledTrackParser.fields(line)
            guard f.count > statusC, f[statusC] == "ok",
                  let activity = LabelledTrackParser.activity(sport: String(f[sportC])) else { continue }
            byGroup[f[runnerC] + "/" + f[sportC], default: []].append((String(f[runnerC]), String(f[idC]), activity))
        }
        var rng = SeededGenerator(seed: seed)
        var chosen: [(runner: String, id: String, activity: ActivityClass)] = []
        for key in byGroup.keys.sorted() {
            guard var group = byGroup[key] else { continue }
            group.shuffle(using: &rng)
            chosen += group.prefix(perSport)
        }
        for (n, c) in chosen.enumerated() {
            let path = root + "/runners/tracks/\(c.runner)/\(c.id).csv.gz"
            do {
                let track = try LabelledTrackParser.trackCSV(try gunzip(path))
                tracks.append(LabelledTrack(person: c.runner, activity: c.activity, track: track, source: c.id))
            } catch let error as LabelledTrackError {
                throw DatasetError("\(path): \(error)")
            }
            progress?.update(done: n + 1, total: chosen.count)
        }
        progress?.finish()
        return tracks
    }

    /// The text of a gzip file (through zlib, with the readers' bomb limits: record 0112).
    static func gunzip(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw DatasetError("\(path): cannot be read") }
        do {
            return String(decoding: try Gzip.decompress([UInt8](data), name: path), as: UTF8.self)
        } catch {
            throw DatasetError("\(path): \(error)")
        }
    }
}
