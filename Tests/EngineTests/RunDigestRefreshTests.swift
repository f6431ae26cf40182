import Testing
import RunusCore
import Tracking
import TrackFormats
import Missions
@testable import Engine

/// Record 0661: `RunDigests.refresh` brings a runner's kept digests to the current codec.
@Suite("run digests brought up to date")
struct RunDigestRefreshTests {
    static let day = CivilDate(iso: "2026-12-02")!

    /// Four tracked runs and a summary-only run of runner "u".
    static func records() -> [RunRecord] {
        var records: [RunRecord] = []
        for i in 0..<4 {
            let start = day.adding(days: -(4 - i)).startInstant(utcOffset: 0) + 7 * 3600
            let track = straightTrack(4000 + 500 * Double(i), pace: 330 - 10 * Double(i), start: start)
            var r = record(track, id: "u:run-\(i)")
            r.track = CompactTrackCodec.encode(track)
            records.append(r)
        }
        records.append(RunRecord(id: "u:summary", userID: "u", startTime: day.startInstant(utcOffset: 0) + 7 * 3600,
                                 distance: 5000, elapsed: 1500, moving: 1500, elevationGain: 0, source: "app"))
        return records
    }

    static func kept(_ r: RunRecord, _ digest: RunDigest?, distance: Meters? = nil) -> StoredRunDigest {
        StoredRunDigest(userID: r.userID, runID: r.id, start: r.startTime, distance: distance ?? r.distance,
                        bytes: RunDigestCodec.encode(digest))
    }

    @Test("a version-1 digest is upgraded; a missing one, one kept for other totals or unreadable bytes are computed; current ones and tracks are left alone the second time")
    func refresh() throws {
        let records = Self.records()
        let fresh = records.map { RunDigests.digest(track: $0.track) }
        #expect(fresh[0...3].allSatisfy { $0?.surges != nil } && fresh[4] == nil)
        let store = try MemoryStoreForDigests(records: records, keepsDigests: true)
        // Run 0: what a version before record 0658 kept (surges unknown, written in version 1).
        let old = try #require(fresh[0])
        let v1 = RunDigest(start: old.start, bestEfforts: old.bestEfforts, cells: old.cells, surges: nil)
        #expect(Self.kept(records[0], v1).bytes.first == 1)
        // Run 1 current; run 2 none kept; run 3 kept for another distance; the summary unreadable bytes.
        try store.storeRunDigests([Self.kept(records[0], v1), Self.kept(records[1], fresh[1]),
                                   Self.kept(records[3], fresh[3], distance: records[3].distance + 1),
                                   StoredRunDigest(userID: "u", runID: "u:summary", start: records[4].startTime,
                                                   distance: records[4].distance, bytes: [9, 9, 9])])
        let counts = try RunDigests.refresh(user: "u", store: store, batch: 2)
        var want = RunDigests.RefreshCounts()
        want.runs = 5; want.current = 1; want.upgraded = 1; want.computed = 3; want.withoutTrack = 1
        #expect(counts == want)
        // Only the four runs computed again read a track.
        #expect(store.reads.withLock { $0 } == 4)
        for (r, digest) in zip(records, fresh) {
            let k = try #require(try store.runDigests(user: "u").first { $0.runID == r.id }, "\(r.id)")
            #expect(k.matches(r), "\(r.id)")
            let decoded = try #require(RunDigestCodec.decode(k.bytes), "\(r.id)")
            #expect(decoded == digest, "\(r.id)")
        }
        // Again: everything current, no track read, nothing written.
        let before = try store.runDigests(user: "u").sorted { $0.runID < $1.runID }
        let again = try RunDigests.refresh(user: "u", store: store)
        var current = RunDigests.RefreshCounts()
        current.runs = 5; current.current = 5
        #expect(again == current)
        #expect(store.reads.withLock { $0 } == 4)
        #expect(try store.runDigests(user: "u").sorted { $0.runID < $1.runID } == before)
        // Another runner's runs are not touched; a runner without runs has nothing to do.
        #expect(try RunDigests.refresh(user: "nobody", store: store) == RunDigests.RefreshCounts())
    }
}
