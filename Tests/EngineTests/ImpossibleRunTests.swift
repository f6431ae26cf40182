import Testing
import RunusCore
import Tracking
@testable import Engine

/// A run is stored only as every later read takes it (record 0230): figures the read check
/// would skip are refused at ingest, figures it would repair are stored repaired. Before this,
/// such runs were stored and then skipped or repaired, with a warning, at every request.
@Suite("impossible runs at ingest")
struct ImpossibleRunTests {
    let start: EpochSeconds = 1_795_000_000

    func store() throws -> InMemoryStore {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana", weightKg: 60, timeZone: "UTC", utcOffsetSeconds: 0))
        return store
    }

    /// `count` fixes `step` seconds apart, `spacing` metres apart on a straight line.
    func line(count: Int, step: Seconds, spacing: Meters, elevation: (Int) -> Double = { _ in 30 }) -> Track {
        Track(points: (0..<count).map { i in
            let p = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: 90, distance: spacing * Double(i))
            return TrackPoint(time: start + step * Double(i), latitude: p.latitude, longitude: p.longitude, elevation: elevation(i))
        })
    }

    @Test("3.5 km in 0.1 s (fixes 1 ms apart) is refused naming the speed, and nothing is stored")
    func tooFastForAnything() throws {
        let store = try store()
        let ingestion = RunIngestion(store: store)
        let track = line(count: 101, step: 0.001, spacing: 35)
        #expect {
            _ = try ingestion.ingest(user: "ana", clientRunID: "bolt", track: track, now: start + 600)
        } throws: { error in
            guard case IngestError.impossible(let id, let reason) = error else { return false }
            return id == "bolt" && reason.contains("faster than")
        }
        #expect(try store.run(user: "ana", id: "bolt") == nil)
        #expect(try store.ingestAnswer(user: "ana", runID: "bolt") == nil)
    }

    @Test("a climb no track can have is stored as the read check repairs it (0 m), so reads see what was stored")
    func repairedClimb() throws {
        let store = try store()
        let ingestion = RunIngestion(store: store)
        // 5 km at 5 min/km whose altitude swings 0 ↔ 20 km every 10 s: 500 km of "climb".
        let track = line(count: 1501, step: 1, spacing: 3.33) { i in (i / 10) % 2 == 0 ? 0 : 20_000 }
        _ = try ingestion.ingest(user: "ana", clientRunID: "alps", track: track, now: start + 3600)
        let stored = try #require(try store.run(user: "ana", id: "alps"))
        #expect(stored.elevationGain == 0)
        #expect(stored.checkedForReading() == .valid(stored))
    }
}
