import Foundation
import RunusCore
@testable import Server
import Storage
import Testing
import TrackFormats
import Tracking
@testable import Service
@testable import ModelStore
@testable import RunusCLI

/// Issue 55's answer flood: connections that ask `users.export` with tracks for a runner with
/// day-long runs and never read. Before record 0555 each held its whole answer (94 MB for
/// twenty runs) and a JSON tree several times that while building it: 754 MB of buffers against
/// a 256 MiB cap, RSS 2.5 GB.
@Suite("users.export floods with unread answers (record 0555)", .serialized)
struct DaemonExportFloodTests {
    static let runs = 6
    static let pointsPerRun = 86_400
    static let connections = 12
    /// The cap given to the daemon: a quarter of the twelve whole answers (about 28 MB each).
    static let cap = 64 << 20
    /// Memory beyond the cap and the baseline the daemon may take: up to four workers each
    /// decoding one day-long track (about 5 MB) and writing its part (about 5 MB), the store's
    /// page cache, and the allocator's slack.
    static let tolerance = 64 << 20

    /// A day of 1 Hz fixes along a meridian (about 2.5 m/s), with elevation and heart rate.
    static func dayTrack(_ start: Double) -> [UInt8] {
        var points: [TrackPoint] = []
        points.reserveCapacity(pointsPerRun)
        for k in 0..<pointsPerRun {
            let t = Double(k)
            let elevation: Double = 200 + Double(k % 50)
            let heartRate: Double = 140 + Double(k % 7)
            points.append(TrackPoint(time: start + t, latitude: 45 + t * 2.25e-5, longitude: 6,
                                     elevation: elevation, heartRate: heartRate))
        }
        return CompactTrackCodec.encode(Track(points: points))
    }

    @Test("12 connections asking a 28 MB export and never reading: RSS stays within the cap plus the baseline, they are cut off, and a reading client gets every point")
    func unreadExports() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("export-flood")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        let store = try SQLiteStore(path: db)
        try store.upsertUser(UserProfile(id: "ultra", weightKg: 60, timeZone: "UTC"))
        for r in 0..<Self.runs {
            let start = 1_780_000_000 + Double(r) * 2 * 86_400
            try #require(try store.insertRun(RunRecord(
                id: "day-\(r)", userID: "ultra", startTime: start, distance: 216_000, elapsed: 86_399, moving: 86_399,
                elevationGain: 1000, source: "app", track: Self.dayTrack(start))))
        }
        try store.close()
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "export-1"), card: "test", to: dir.file("model"))
        let daemon = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("e.sock"),
                                     extraArguments: ["--max-buffered-bytes", "\(Self.cap)", "--write-deadline", "2"])
        let probe = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(60))
        #expect(try probe.call(["op": "health"])["ok"] == true)
        let baseline = try #require(daemon.memory("VmRSS"))

        let request: JSONValue = ["op": "users.export", "user": "ultra", "tracks": true]
        var silent: [LineClient] = []
        for _ in 0..<Self.connections {
            let client = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(60))
            try client.send(request)
            silent.append(client)
        }
        // Each is cut off at the write deadline: the daemon closes it (HUP, polled for with
        // no events asked, so the unread answer bytes do not wake it).
        for (k, client) in silent.enumerated() {
            let events = try Sys.poll(client.fileDescriptor, events: 0, timeoutMilliseconds: 60_000)
            #expect(events & Int16(POLLHUP) != 0, "connection \(k) was not closed (poll \(events))")
        }
        let peak = try #require(daemon.memory("VmHWM"))
        #expect(peak - baseline < Self.cap + Self.tolerance, "peak RSS \(peak) is \(peak - baseline) over the baseline \(baseline)")

        // A client that reads gets the whole export, every fix of every run.
        let reader = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(120))
        let answer = try reader.call(["op": "users.export", "user": "ultra", "tracks": true, "id": 9])
        #expect(answer["id"] == 9 && answer["ok"] == true, "\(answer["error"] ?? .null)")
        let runs = answer["result"]?["runs"]?.arrayValue ?? []
        #expect(runs.count == Self.runs)
        #expect(runs.allSatisfy { $0["points"]?.arrayValue?.count == Self.pointsPerRun })
        #expect(runs.first?["points"]?.arrayValue?.first == [1_780_000_000, 45, 6, 200, 140])
        #expect(answer["result"]?["user"] == "ultra" && answer["result"]?["profile"]?["weight_kg"] == 60)
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == .exited(0))
    }
}

@Suite("users.export written in parts (record 0555)")
struct UsersExportStreamTests {
    /// Drains a stream with parts of `partBytes`, counting them.
    static func drain(_ stream: UsersExportStream, partBytes: Int) throws -> (bytes: [UInt8], parts: Int) {
        var out: [UInt8] = []
        var parts = 1
        while try stream.writeNext(into: &out, partBytes: partBytes) { parts += 1 }
        return (out, parts)
    }

    @Test("the parts join into exactly what JSONWriter writes for the value, whatever the part size, tracks and summaries alike")
    func bytesAsWhole() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(UserProfile(id: "ana", weightKg: 58, timeZone: "UTC"))
        let points = (0..<30).map { k in TrackPoint(time: 1_780_000_000 + Double(k), latitude: 45 + Double(k) * 1e-4, longitude: 6) }
        let readings = [DistanceSample(time: 1_780_000_010, distance: 100), DistanceSample(time: 1_780_000_010.5, distance: 104)]
        let tracked = CompactTrackCodec.encode(Track(points: points, deviceDistances: readings))
        try store.insertRun(RunRecord(id: "a", userID: "ana", startTime: 1_780_000_000, distance: 330, elapsed: 29, moving: 29,
                                      elevationGain: 0, source: "app", track: tracked))
        try store.insertRun(RunRecord(id: "b", userID: "ana", startTime: 1_780_100_000, distance: 5000, elapsed: 1500, moving: 1500,
                                      elevationGain: 0, source: "app"))
        try store.insertRun(RunRecord(id: "c", userID: "ana", startTime: 1_780_200_000, distance: 330, elapsed: 29, moving: 29,
                                      elevationGain: 0, source: "app", track: tracked, rewarded: false, unrewardedReason: "too old"))
        for tracks in [false, true] {
            let (small, parts) = try Self.drain(UsersExportStream(user: "ana", withTracks: tracks, store: store), partBytes: 1)
            let (large, _) = try Self.drain(UsersExportStream(user: "ana", withTracks: tracks, store: store), partBytes: 1 << 20)
            #expect(small == large)
            #expect(parts == 2 + 3 - 1, "a head, then a run a part: \(parts)")  // the last run ends the value
            let value = try JSONParser.parse(small)
            #expect(JSONWriter.bytes(value) == small, "the streamed bytes are not JSONWriter's for their own value")
            let runs = try #require(value["runs"]?.arrayValue)
            #expect(runs.map { $0["id"]?.stringValue } == ["a", "b", "c"])
            #expect(runs.map { $0["has_track"] } == [true, false, true])
            let decoded = try CompactTrackCodec.decode(tracked)
            let expected: JSONValue? = tracks ? WireTrack.json(decoded) : Optional<JSONValue>.none
            #expect(runs[0]["points"] == expected)
            #expect(runs[1]["points"] == Optional<JSONValue>.none)
            #expect(value["user"] == "ana" && value["badges"] == [] && value["profile"]?["weight_kg"] == 58)
        }
        #expect(throws: RequestError.self) { try UsersExportStream(user: "nobody", withTracks: true, store: store) }
    }

    @Test("WireTrack.write is JSONWriter of WireTrack.json, readings merged by time")
    func trackBytes() throws {
        var rng = SeededGenerator(seed: 55)
        for _ in 0..<50 {
            let count = rng.int(in: 0...40)
            let points = (0..<count).map { k in
                TrackPoint(time: Double(k), latitude: rng.uniform(-80, 80), longitude: rng.uniform(-170, 170),
                           elevation: rng.bernoulli(0.5) ? rng.uniform(0, 3000) : nil, heartRate: rng.bernoulli(0.3) ? 150 : nil)
            }
            let readings = (0..<rng.int(in: 0...10)).map { k in DistanceSample(time: Double(k) * 3.5, distance: Double(k) * 10) }
            let track = Track(points: points, deviceDistances: readings)
            var out: [UInt8] = []
            WireTrack.write(track, into: &out)
            #expect(out == JSONWriter.bytes(WireTrack.json(track)))
        }
    }
}
