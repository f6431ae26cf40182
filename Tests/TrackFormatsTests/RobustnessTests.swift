import Testing
import RunusCore
import Tracking
@testable import TrackFormats

@Suite("Readers never trap on bad bytes")
struct RobustnessTests {
    static var fixtures: [(String, [UInt8])] {
        [
            ("gpx10.gpx", Array(Fixtures.gpx10NoNamespaceNoTimes.utf8)),
            ("garmin.gpx", Array(Fixtures.gpx11GarminTwoTracksThreeSegments.utf8)),
            ("cluetrust.gpx", Array(Fixtures.gpxCluetrustUndeclaredPrefix.utf8)),
            ("totals.gpx", Array(Fixtures.gpxGarminConnectTotals.utf8)),
            ("laps.tcx", Array(Fixtures.tcxTwoLapsRunCadenceNoPosition.utf8)),
            ("multi.geojson", Array(Fixtures.geojsonMultiLineStringWithCoordTimes.utf8)),
            ("track.csv", Array(Fixtures.csvWithEmptyPositionAndFractionalTime.utf8)),
            ("run.fit", FITBuilder.run(count: 12, compressed: true, developer: true).file()),
            ("chained.fit", FITBuilder.run(count: 5).file() + FITBuilder.run(count: 4).file(headerSize: 12)),
            ("track.csv.gz", GzipOracle.gzipStored(Array(Fixtures.csvWithEmptyPositionAndFractionalTime.utf8))),
        ]
    }

    /// Reads and reports whether it threw; any trap would end the test process.
    static func outcome(_ bytes: [UInt8], _ name: String) -> Bool {
        do { _ = try TrackFileReader.read(bytes, name: name); return true } catch { return false }
    }

    @Test func everyTruncationThrowsOrReads() {
        for (name, bytes) in Self.fixtures {
            #expect(Self.outcome(bytes, name), "\(name) must read whole")
            var errors = 0
            for cut in 0..<bytes.count where !Self.outcome(Array(bytes[0..<cut]), name) { errors += 1 }
            // Structured formats (XML, FIT, gzip) must reject every cut that leaves a structure open;
            // CSV and a JSON cut after the last brace may legitimately read. So only a count.
            #expect(errors > 0, "\(name): no truncation was detected")
        }
    }

    @Test func truncatedStructuredFilesAreAlwaysRejected() {
        for (name, bytes) in Self.fixtures where name.hasSuffix(".fit") || name.hasSuffix(".gz") || name.hasSuffix(".tcx") {
            // Cuts inside the last closing tag / CRC / gzip trailer still remove required bytes.
            for cut in 1..<bytes.count {
                let prefix = Array(bytes[0..<cut])
                if name == "chained.fit" && FITReader.looksLikeFIT(prefix) && cut == FITBuilder.run(count: 5).file().count { continue }
                #expect(!Self.outcome(prefix, name), "\(name) cut at \(cut) was accepted")
            }
        }
    }

    @Test func randomByteMutationsNeverTrap() {
        var rng = SeededGenerator(seed: 20261129)
        for (name, bytes) in Self.fixtures {
            for _ in 0..<300 {
                var b = bytes
                let flips = 1 + Int(rng.next() % 4)
                for _ in 0..<flips { b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next()) }
                _ = Self.outcome(b, name)
            }
        }
    }

    @Test func garbageAndEmptyInputsNameTheFile() {
        for bytes in [[], [0x1F, 0x8B], Array("hello".utf8), [0x0E, 0, 0, 0, 0, 0, 0, 0, 0x2E, 0x46, 0x49, 0x54]] as [[UInt8]] {
            #expect { try TrackFileReader.read(bytes, name: "junk.bin") } throws: { error in
                (error as? TrackReadError)?.file == "junk.bin"
            }
        }
    }
}

@Suite("Byte-level numbers and instants")
struct ByteNumbersTests {
    static func parse(_ s: String) -> Double? {
        Array(s.utf8).withUnsafeBufferPointer { ByteNumbers.double($0, 0, $0.count) }
    }

    @Test func decimalsAgreeWithTheStandardLibrary() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let magnitude = Double(rng.next() % 1_000_000_000) / Double([1, 10, 1000, 1e7, 1e9][Int(rng.next() % 5)])
            let text = (rng.next() % 2 == 0 ? "-" : "") + String(magnitude)
            let ours = Self.parse(text)!, oracle = Double(text)!
            // Up to 15 significant digits the fast path is exact; String(Double) may print 17.
            #expect(abs(ours - oracle) <= abs(oracle) * 4e-16, "\(text)")
        }
        #expect(Self.parse("35.70875865407288074493408203125")! == 35.70875865407288)
        #expect(Self.parse(" 1e3 ") == 1000 && Self.parse("+2.5E-1") == 0.25 && Self.parse(".5") == 0.5)
        for bad in ["", "-", "1.2.3", "abc", "1e", "nan", "1,5"] { #expect(Self.parse(bad) == nil, "\(bad)") }
    }

    @Test func isoInstantsWithFractionsAndZones() {
        func t(_ s: String) -> Double? { Array(s.utf8).withUnsafeBufferPointer { ByteNumbers.isoInstant($0, 0, $0.count) } }
        #expect(t("1970-01-01T00:00:00Z") == 0)
        #expect(t("2000-02-29T12:00:00Z") == 951_825_600)
        #expect(t("2024-06-05T10:39:55.518000+00:00") == 1_717_583_995.518)
        #expect(t("2024-06-05T12:39:55+0200") == 1_717_583_995)
        #expect(t("2024-06-05 10:39:55") == 1_717_583_995)
        #expect(t("1969-12-31T23:59:59Z") == -1)
        for bad in ["2024-13-01T00:00:00Z", "2024-06-05", "2024-06-05T10:39", "yesterday"] { #expect(t(bad) == nil, "\(bad)") }
    }
}
