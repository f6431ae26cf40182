import Foundation
import RunusCore
import Tracking
import TrackFormats

/// Reads track files from disk for the commands (the pure readers take bytes).
public enum TrackFiles {
    public static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DatasetError("\(path): cannot be read (missing or not a file)")
        }
        return [UInt8](data)
    }

    public static func load(_ path: String) throws -> (format: TrackFileFormat, activities: [Activity]) {
        try TrackFileReader.read(try bytes(path), name: path)
    }

    /// Track files below `path` (or `path` itself), sorted.
    public static func expand(_ path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let names = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
        let extensions = [".gpx", ".tcx", ".fit", ".geojson", ".json", ".csv"]
        return names.filter { n in
            let l = n.lowercased()
            return extensions.contains { l.hasSuffix($0) || l.hasSuffix($0 + ".gz") }
        }.sorted().map { (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/" + $0 }
    }
}
