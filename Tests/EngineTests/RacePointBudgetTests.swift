import Testing
import RunusCore
import Tracking
import TrackFormats
@testable import Engine

/// The point budget of record 0551 (issue 55, item 2, found 2026-12-07: 13 M points into one race
/// in 35 s, and a restart that replayed them for 7 s).
@Suite("race point budget")
struct RacePointBudgetTests {
    static let start: EpochSeconds = 1_800_000_000
    typealias Service = RaceService<LiveRaceTracker>

    static func openRace(rules: RacePositionRules = RacePositionRules()) throws -> (InMemoryStore, Service) {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana", timeZone: "UTC"))
        let service = Service(store: store, positionRules: rules, makeTracker: { LiveRaceTracker() })
        try service.create(RaceSettings(id: "r", name: "5k", distance: 5000, startTime: start, capacity: 5, createdBy: "ana"),
                           now: start - 100)
        _ = try service.join("r", user: "ana", token: "t-ana", now: start - 50)
        _ = service.tick(now: start)
        return (store, service)
    }

    /// Every point the race's log holds.
    static func storedPoints(_ store: InMemoryStore) throws -> [TrackPoint] {
        try store.raceEntries(race: "r").flatMap { entry in try entry.points.map { try CompactTrackCodec.decode($0).points } ?? [] }
    }

    /// Second `k` of the race as `perSecond` points, evenly spaced, 3.5 m/s north.
    static func flood(second k: Int, perSecond: Int) -> [TrackPoint] {
        (0..<perSecond).map { j in
            let t = Double(k) + Double(j) / Double(perSecond)
            let p = Geodesy.destination(latitude: 35.0, longitude: 139.0, bearing: 0, distance: t * 3.5)
            return TrackPoint(time: start + t, latitude: p.latitude, longitude: p.longitude)
        }
    }

    @Test("a position flood (200 points a second for 40 s) stores at most one point per 0.5 s of race time; regression 2026-12-07")
    func floodIsThinned() throws {
        let (store, service) = try Self.openRace()
        for k in 0..<40 {
            _ = try service.position("r", token: "t-ana", points: Self.flood(second: k, perSecond: 200), now: Self.start + Double(k) + 1)
        }
        let stored = try Self.storedPoints(store)
        // 40 s of race at one point per 0.5 s: 80 points.
        #expect(stored.count <= 80)
        #expect(stored.count >= 79, "the budget keeps a point per 0.5 s, not fewer")
        #expect(zip(stored, stored.dropFirst()).allSatisfy { $1.time - $0.time >= 0.5 - 1e-3 },
                "stored points are at least 0.5 s apart (1 ms: the compact form's time quantum)")
    }

    @Test("resending the same batch stores nothing new and leaves the ranking as it was")
    func resentBatchLogsNothing() throws {
        let (store, service) = try Self.openRace()
        let batch = Self.flood(second: 0, perSecond: 1) + Self.flood(second: 1, perSecond: 1) + Self.flood(second: 2, perSecond: 1)
        _ = try service.position("r", token: "t-ana", points: batch, now: Self.start + 3)
        let entries = try store.raceEntries(race: "r").count
        let ranking = try service.ranking("r", now: Self.start + 4)
        for _ in 0..<50 { _ = try service.position("r", token: "t-ana", points: batch, now: Self.start + 4) }
        #expect(try store.raceEntries(race: "r").count == entries)
        #expect(try service.ranking("r", now: Self.start + 4) == ranking)
    }

    @Test("a runner counts at most maximumPointsPerRunner points in a race, live and after a restart")
    func perRaceCap() throws {
        var rules = RacePositionRules()
        rules.maximumPointsPerRunner = 30
        let (store, service) = try Self.openRace(rules: rules)
        for k in 0..<60 {
            _ = try service.position("r", token: "t-ana", points: Self.flood(second: k, perSecond: 1), now: Self.start + Double(k) + 1)
        }
        #expect(try Self.storedPoints(store).count == 30)
        let live = try service.ranking("r", now: Self.start + 61)
        let resumed = Service(store: store, positionRules: rules, makeTracker: { LiveRaceTracker() })
        #expect(try resumed.resume(now: Self.start + 61) == 1)
        #expect(try resumed.ranking("r", now: Self.start + 61) == live)
    }

    @Test("positionCounting answers how many fresh points the budget left out")
    func droppedIsCounted() throws {
        let (_, service) = try Self.openRace()
        let answer = try service.positionCounting("r", token: "t-ana", points: Self.flood(second: 0, perSecond: 10), now: Self.start + 1)
        // 0.0 and 0.5 s are kept; the other 8 are closer than 0.5 s to one kept.
        #expect(answer.dropped == 8)
    }
}
