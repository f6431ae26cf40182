import Testing
import RunusCore
import Tracking
@testable import TrackFormats

@Suite("FIT reader")
struct FITReaderTests {
    @Test func recordsLapsAndSessionAreScaled() throws {
        let bytes = FITBuilder.run().file()
        let (format, activities) = try TrackFileReader.read(bytes, name: "run.fit")
        #expect(format == .fit && activities.count == 1)
        let a = activities[0]
        #expect(a.sport == "running" && a.recordCount == 40 && a.track.points.count == 40)
        let p = a.track.points[10]
        #expect(p.time == 1_700_000_010)
        #expect(abs(p.latitude - (47 + 10 * 2.7e-5)) < 1e-7)  // semicircle quantum 8.4e-8°
        #expect(abs(p.elevation! - 401) < 0.2 + 1e-9)            // altitude quantum 0.2 m
        #expect(p.heartRate == 140 && p.cadence == 85)
        let t = a.deviceTotals
        #expect(t.distance == 117 && t.elapsedTime == 39 && t.timerTime == 39 && t.calories == 9)
        #expect(t.averageHeartRate == 144 && t.maximumHeartRate == 149 && t.ascent == 4 && t.startTime == 1_700_000_000)
        #expect(a.laps.count == 1 && a.laps[0].averageHeartRate == 144)
    }

    @Test func compressedTimestampsRollOverAndDeveloperFieldsAreSkipped() throws {
        // Start 3 s before a 32-second boundary so the 5-bit offset wraps.
        let start = FITReader.epochOffset + 32 * 1000 - 3
        let plain = try FITReader.read(FITBuilder.run(start: start, count: 70).file(), name: "a")[0].track.points
        for options in [(true, false, false), (true, true, false), (false, true, true), (true, true, true)] {
            let b = FITBuilder.run(start: start, count: 70, compressed: options.0, developer: options.1, bigEndian: options.2)
            let points = try FITReader.read(b.file(), name: "b")[0].track.points
            #expect(points == plain)
        }
    }

    @Test func chainedFilesAreReadInTurn() throws {
        let first = FITBuilder.run(start: 1_700_000_000, count: 10).file()
        let second = FITBuilder.run(start: 1_700_100_000, count: 5).file(headerSize: 12)
        let activities = try FITReader.read(first + second, name: "chained.fit")
        #expect(activities.map(\.track.points.count) == [10, 5])
    }

    @Test func corruptFilesGiveNamedErrors() {
        func problem(_ bytes: [UInt8]) -> TrackReadProblem? {
            do { _ = try FITReader.read(bytes, name: "x.fit"); return nil } catch { return error.problem }
        }
        let good = FITBuilder.run().file()
        #expect(problem(FITBuilder.run().file(breakCRC: true)) == .checksum)
        var badHeader = good; badHeader[0] = 13
        #expect(problem(badHeader) == .header)
        var badHeaderCRC = good; badHeaderCRC[12] ^= 1
        #expect(problem(badHeaderCRC) == .header)
        #expect(problem(Array(good.dropLast(7))) == .truncated)
        #expect(problem(good + Array(good.prefix(20))) == .truncated)  // a chained file cut short
        do {
            _ = try FITReader.read(FITBuilder.run().file(breakCRC: true), name: "broken.fit")
        } catch {
            #expect(error.description.hasPrefix("broken.fit: byte "))
            #expect(error.description.contains("CRC"))
        }
    }

    @Test func undefinedLocalMessageIsMalformed() {
        var b = FITBuilder()
        b.define(local: 0, global: 20, fields: [.init(number: 253, size: 4, baseType: FITBuilder.uint32)])
        b.message(local: 0, [1000])
        var bytes = b.file()
        // Point the data message at local type 5, which has no definition, and fix the CRC.
        bytes[14 + 9] = 0x05
        bytes.removeLast(2)
        let crc = bytes.withUnsafeBufferPointer { FITCRC.compute($0, 0, $0.count) }
        bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        #expect(throws: TrackReadError.self) { try FITReader.read(bytes, name: "x") }
    }
}
