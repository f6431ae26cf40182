import Testing
import RunusCore
import TrackFormats
@testable import Fuzzing

/// The file side of the fuzzer: gzip written without zlib and read back by zlib, FIT walked and
/// re-checksummed, seeds every reader accepts, tokens found where they are, mutations seeded.
@Suite("file mutation")
struct FileMutationTests {
    @Test("stored gzip and the fixed-Huffman repeater inflate (zlib, the oracle) to the bytes they claim", arguments: [0, 1, 1000, 65_535, 65_536, 200_001])
    func gzipRoundTrip(size: Int) throws {
        var g = SeededGenerator(seed: UInt64(size))
        let data = (0..<size).map { _ in UInt8(truncatingIfNeeded: g.next()) }
        #expect(try Gzip.decompress(GzipWriter.stored(data), name: "t") == data)
        guard size > 0 else { return }
        let chunk = Array(data.prefix(min(size, 32_768)))
        let prefix = Array(data.suffix(min(size, 500)))
        let times = max(1, 300_000 / chunk.count)
        let expected = prefix + Array([[UInt8]](repeating: chunk, count: times).joined())
        #expect(try Gzip.decompress(GzipWriter.repeating(chunk, times: times, after: prefix), name: "t") == expected)
    }

    @Test("every synthetic seed is read by TrackFileReader in its format, with its fixes")
    func seedsAreReadable() throws {
        let expected: [String: (String, Int)] = [
            "gpx11-garmin-extensions.gpx": ("gpx", 600), "gpx10-no-times-empty-segment.gpx": ("gpx", 120),
            "tcx-two-laps-hr-cadence.tcx": ("tcx", 600), "csv-empty-positions-fractional-times.csv": ("csv", 600),
            "geojson-multilinestring-coordtimes.geojson": ("geojson", 600),
            "fit-records-lap-session.fit": ("fit", 600), "fit-compressed-timestamps-lap-session.fit": ("fit", 600),
        ]
        #expect(Set(SeedCorpus.files.map(\.name)) == Set(expected.keys))
        for seed in SeedCorpus.files {
            let (format, activities) = try TrackFileReader.read(seed.bytes, name: seed.name)
            #expect(format.rawValue == expected[seed.name]?.0, "\(seed.name)")
            let points = activities.reduce(0) { $0 + $1.track.points.count }
            // The CSV seed has a row without a position every 97 rows: those are not fixes.
            #expect(points == expected[seed.name]!.1 || (seed.name.hasSuffix(".csv") && points >= 590), "\(seed.name): \(points)")
            #expect(FilePipeline.run(seed.bytes, name: seed.name).anomalies.isEmpty)
        }
    }

    @Test("FIT: the walk finds every message; fixing CRCs of an intact file changes nothing; a mutated field with fixed CRCs passes the checks")
    func fitLayout() throws {
        for seed in SeedCorpus.files where seed.name.hasSuffix(".fit") {
            let layout = try #require(FITLayout(seed.bytes))
            #expect(layout.messages.count == 603, "file_id, 600 records, lap, session")
            var same = seed.bytes
            FITLayout.fixCRCs(&same)
            #expect(same == seed.bytes)
            var mutated = seed.bytes
            let record = layout.messages[300]
            mutated[record.values.last!.offset] = 0xFF  // a cadence set to "invalid"
            #expect(throws: TrackReadError.self) { try FITReader.read(mutated, name: "m.fit") }
            FITLayout.fixCRCs(&mutated)
            #expect(try FITReader.read(mutated, name: "m.fit").first?.track.points.count == 600)
        }
    }

    @Test("numbers and timestamps are found as whole tokens, not inside names or other numbers")
    func tokens() {
        let text = Array(#"<trkpt lat="47.5" lon="-8.25e2"><ele>400</ele><time>2024-05-01T06:00:00Z</time><gpxtpx:hr>1x2</gpxtpx:hr></trkpt>"#.utf8)
        let found = TextTokens.scan(text).map { (String(decoding: text[$0.range], as: UTF8.self), $0.kind == .timestamp) }
        #expect(found.map(\.0) == ["47.5", "-8.25e2", "400", "2024-05-01T06:00:00Z"])
        #expect(found.map(\.1) == [false, false, false, true])
    }

    @Test("file i is the same on every run, files differ, and none grows past the limit")
    func mutatorSeeded() {
        let a = FileMutator(seeds: SeedCorpus.files, seed: 11, maximumBytes: 1 << 20)
        let b = FileMutator(seeds: SeedCorpus.files, seed: 11, maximumBytes: 1 << 20)
        var distinct = Set<[UInt8]>()
        for i in 0..<100 {
            let x = a.file(i)
            #expect(x.bytes == b.file(i).bytes && x.mutations == b.file(i).mutations)
            #expect(x.bytes.count <= a.maximumBytes + (1 << 20))
            distinct.insert(x.bytes)
        }
        #expect(distinct.count > 95)
    }

    @Test("a hang or crash inside one kind's check names the kind")
    func kindFromFrames() {
        #expect(FilePipeline.kind(in: ["static FartlekDetector.surges(in:averageSpeed:minDuration:) at Missions/MissionEvaluator+Efforts.swift:129"]) == .fartlek)
        #expect(FilePipeline.kind(in: ["specialized static MissionEvaluator.checkHills(minAscent:run:tolerance:_:) at Missions/MissionEvaluator+Place.swift:30"]) == .hills)
        #expect(FilePipeline.kind(in: ["GPXReader.read at TrackFormats/GPXReader.swift:10"]) == nil)
    }
}
