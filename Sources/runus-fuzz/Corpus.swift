import Foundation
import RunusCore
import TrackFormats
import Fuzzing

/// The seed files of the file mutator: the synthetic seeds (`SeedCorpus`, always), and when the
/// shared datasets are there, the reference suites' track files, the raw GPX files and a seeded
/// sample of the runners' CSV tracks. Everything is read from the datasets folder at run time
/// and only ever written under var/ (the datasets' README: never into the repository).
enum Corpus {
    static let extensions = [".gpx", ".tcx", ".fit", ".csv", ".geojson", ".json"]
    /// Seeds larger than this (decompressed) are left out: mutations multiply sizes.
    static let maximumSeedBytes = 6 << 20
    /// Runner tracks sampled from datasets/runners/tracks.
    static let runnerTracks = 24

    /// The seeds, in a fixed order, and a note on where they came from.
    static func load(datasets: String?, seed: UInt64) -> (seeds: [SeedFile], note: String) {
        var seeds = SeedCorpus.files
        guard let datasets else { return (seeds, "\(seeds.count) synthetic seeds (no datasets folder given)") }
        guard FileManager.default.fileExists(atPath: "\(datasets)/reference") else {
            return (seeds, "\(seeds.count) synthetic seeds; datasets not found at \(datasets) (set RUNUS_DATASETS): skipped")
        }
        var paths = files(under: "\(datasets)/reference").filter { path in
            let name = (path as NSString).lastPathComponent.lowercased()
            return !name.hasPrefix("expected") && !name.hasSuffix("records.csv") && !name.hasSuffix("files.csv") && !name.hasSuffix("index.csv")
                && !name.hasSuffix("package.json") && !name.contains("licen")
        }
        paths += files(under: "\(datasets)/runners/raw-gpx").filter { $0.hasSuffix(".gpx.gz") }
        var tracks = files(under: "\(datasets)/runners/tracks").filter { $0.hasSuffix(".csv.gz") }
        var g = SeededGenerator(seed: seed, stream: 540)
        tracks.shuffle(using: &g)
        paths += tracks.prefix(runnerTracks).sorted()
        var skipped = 0
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            var bytes = [UInt8](data)
            if Gzip.isGzip(bytes) {
                guard let plain = try? Gzip.decompress(bytes, name: path, limits: .init(floorBytes: maximumSeedBytes, maximumRatio: 1, absoluteBytes: maximumSeedBytes)) else { skipped += 1; continue }
                bytes = plain
            }
            guard bytes.count <= maximumSeedBytes else { skipped += 1; continue }
            var name = String(path.dropFirst(datasets.count + 1))
            if name.hasSuffix(".gz") { name.removeLast(3) }
            seeds.append(SeedFile(name: name, bytes: bytes))
        }
        return (seeds, "\(seeds.count) seeds: \(SeedCorpus.files.count) synthetic, \(seeds.count - SeedCorpus.files.count) from \(datasets) (\(skipped) too large or unreadable, left out)")
    }

    static func files(under root: String) -> [String] {
        guard let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] else { return [] }
        return names.filter { n in
            let l = n.lowercased()
            return extensions.contains { l.hasSuffix($0) || l.hasSuffix($0 + ".gz") }
        }.sorted().map { "\(root)/\($0)" }
    }
}
