import Testing
import RunusCore
import Tracking
@testable import TrackFormats

/// Parses a fixture through the format-detecting entry point.
func readAll(_ text: String, name: String = "fixture") throws -> (format: TrackFileFormat, activities: [Activity]) {
    try TrackFileReader.read(Array(text.utf8), name: name)
}

@Suite("GPX reader")
struct GPXReaderTests {
    @Test func gpx10WithoutNamespaceOrTimes() throws {
        let (format, activities) = try readAll(Fixtures.gpx10NoNamespaceNoTimes)
        #expect(format == .gpx)
        let p = activities[0].track.points
        #expect(p.count == 3)
        #expect(p.allSatisfy { $0.time.isNaN })
        #expect(p[0].elevation == 300 && p[1].elevation == nil && p[2].elevation == 310.5)
        #expect(p[1].latitude == 46.001)
    }

    @Test func garminExtensionsTracksSegmentsCommentsAndZones() throws {
        let a = try readAll(Fixtures.gpx11GarminTwoTracksThreeSegments).activities[0]
        let p = a.track.points
        #expect(p.count == 4)
        #expect(a.segmentStarts == [0, 2, 3])  // the empty segment adds no start
        #expect(a.sport == "running")
        #expect(p[0].heartRate == 120 && p[0].cadence == 85 && p[1].heartRate == 121 && p[1].cadence == nil)
        #expect(p[0].time == 1_714_543_200)
        #expect(p[1].time == 1_714_543_201.5)
        #expect(p[2].time == 1_714_543_202)  // +02:00 zone
        #expect(p[3].elevation == nil && p[3].time == 1_714_543_203)
    }

    @Test func cluetrustExtensionWithUndeclaredPrefix() throws {
        let p = try readAll(Fixtures.gpxCluetrustUndeclaredPrefix).activities[0].track.points
        #expect(p.map(\.heartRate) == [150, 151])
        #expect(p.map(\.cadence) == [88, nil])
        #expect(p[0].latitude == -33.9)
    }

    @Test func routeIsUsedWhenThereIsNoTrack() throws {
        let a = try readAll(Fixtures.gpxRouteOnly).activities[0]
        #expect(a.track.points.count == 2 && a.segmentStarts == [0])
    }

    @Test func garminConnectTopLevelTotals() throws {
        let t = try readAll(Fixtures.gpxGarminConnectTotals).activities[0].deviceTotals
        #expect(t.distance == 5012.5 && t.movingTime == 1500 && t.elapsedTime == 1560.25 && t.averageHeartRate == 141)
        #expect(t.startTime == 1_717_581_630)
    }

    @Test func badLatitudeNamesFileLineAndValue() {
        #expect {
            try readAll(Fixtures.gpxBadLatitudeOnLine3, name: "bad.gpx")
        } throws: { error in
            guard let e = error as? TrackReadError else { return false }
            return e.file == "bad.gpx" && e.line == 3 && e.problem == .malformed && e.description.contains("north")
        }
    }

    @Test func mismatchedEndTagIsMalformed() {
        #expect {
            try readAll(Fixtures.gpxMismatchedEndTag)
        } throws: { error in
            (error as? TrackReadError)?.description.contains("expected </trkseg>, found </trk>") == true
        }
    }
}

@Suite("TCX, GeoJSON and CSV readers")
struct OtherTextReaderTests {
    @Test func tcxLapsTotalsCadenceAndPointsWithoutPosition() throws {
        let (format, activities) = try readAll(Fixtures.tcxTwoLapsRunCadenceNoPosition)
        #expect(format == .tcx && activities.count == 2)
        let run = activities[0]
        #expect(run.sport == "running" && run.recordCount == 4 && run.track.points.count == 3)
        #expect(run.segmentStarts == [0, 2])
        #expect(run.track.points[0].cadence == 86 && run.track.points[0].heartRate == 130 && run.track.points[0].elevation == 20)
        #expect(run.laps.count == 2)
        let t = run.deviceTotals
        #expect(t.timerTime == 400 && t.distance == 1200 && t.calories == 80 && t.maximumHeartRate == 170)
        #expect(abs(t.averageHeartRate! - 155) < 1e-9)  // (140·100 + 160·300) / 400
        #expect(activities[1].sport == "biking" && activities[1].track.points[0].cadence == 90)
    }

    @Test func geojsonMultiLineStringTimesAndHeartRates() throws {
        let (format, activities) = try readAll(Fixtures.geojsonMultiLineStringWithCoordTimes)
        #expect(format == .geojson)
        let a = activities[0]
        #expect(a.track.points.count == 5 && a.segmentStarts == [0, 2, 3])
        #expect(a.track.points[0].elevation == 400 && a.track.points[2].elevation == nil)
        #expect(a.track.points[2].time == 1_712_207_400 && a.track.points[2].heartRate == 110)
        #expect(a.track.points[4].time == 1_712_207_401.5)
        #expect(a.track.points[0].longitude == 8.5 && a.track.points[0].latitude == 47)
    }

    @Test func csvEmptyPositionsAndFractionalTimes() throws {
        let (format, activities) = try readAll(Fixtures.csvWithEmptyPositionAndFractionalTime, name: "x.csv")
        #expect(format == .csv)
        let a = activities[0]
        #expect(a.recordCount == 4 && a.track.points.count == 3)
        #expect(a.track.points[1].time == 1_700_000_002 && a.track.points[1].elevation == nil && a.track.points[1].cadence == 171)
        #expect(a.track.points[2].heartRate == nil && a.track.points[2].elevation == 401)
    }

    @Test func gzipInputIsDecompressedTransparently() throws {
        let plain = Array(Fixtures.csvWithEmptyPositionAndFractionalTime.utf8)
        let gz = GzipOracle.gzipStored(plain)
        let (format, activities) = try TrackFileReader.read(gz, name: "t.csv.gz")
        #expect(format == .csv && activities[0].track.points.count == 3)
        // Concatenated members read one after the other, as gunzip does.
        #expect(try Gzip.decompress(gz + gz, name: "two") == plain + plain)
        var broken = gz
        broken[broken.count - 6] ^= 0xFF  // CRC-32 of the member
        #expect(throws: TrackReadError.self) { try Gzip.decompress(broken, name: "broken.gz") }
    }
}

/// A gzip writer using stored (uncompressed) deflate blocks: simple enough to be obviously
/// correct, and a valid stream for any inflater.
enum GzipOracle {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func gzipStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        var offset = 0
        repeat {
            let n = min(65535, bytes.count - offset)
            let last: UInt8 = offset + n == bytes.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += bytes[offset..<offset + n]
            offset += n
        } while offset < bytes.count
        let crc = crc32(bytes), size = UInt32(bytes.count)
        for v in [crc, size] { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        return out
    }
}
