import Testing
import RunusCore
import Tracking
@testable import Engine

/// Record 0552 (issue 55, found 2026-12-07): 1,000 throwaway runners × 10 races filled the
/// daemon's cap for everyone. Hosts new to running share a part of it; runners who have run keep
/// the rest, after a restart too.
@Suite("the new hosts' share of the race cap (record 0552)")
struct RaceHostShareTests {
    static let now: EpochSeconds = 1_800_000_000
    typealias Service = RaceService<LiveRaceTracker>

    static func settings(_ id: String, by host: UserID) -> RaceSettings {
        RaceSettings(id: id, name: id, distance: 5000, startTime: now + 3600, capacity: 10, createdBy: host)
    }

    @Test("throwaway hosts fill only their share; a runner with a rewarded run two weeks old still creates; a restart counts the same")
    func share() throws {
        let store = InMemoryStore()
        var limits = RaceLimits()
        limits.openByNewHostsInTotal = 3
        for k in 0..<5 { try store.upsertUser(UserProfile(id: "throwaway-\(k)", timeZone: "UTC")) }
        try store.upsertUser(UserProfile(id: "ana", timeZone: "UTC"))
        try store.upsertUser(UserProfile(id: "bo", timeZone: "UTC"))
        // ana ran 15 days ago; bo ran 13 days ago (not yet established), and his older run earned nothing.
        try store.insertRun(RunRecord(id: "a1", userID: "ana", startTime: Self.now - 15 * 86_400, distance: 5000, elapsed: 1500,
                                      moving: 1500, elevationGain: 0, source: "app"))
        try store.insertRun(RunRecord(id: "b1", userID: "bo", startTime: Self.now - 13 * 86_400, distance: 5000, elapsed: 1500,
                                      moving: 1500, elevationGain: 0, source: "app"))
        try store.insertRun(RunRecord(id: "b0", userID: "bo", startTime: Self.now - 30 * 86_400, distance: 5000, elapsed: 1500,
                                      moving: 1500, elevationGain: 0, source: "app", rewarded: false, unrewardedReason: "too_old"))
        let service = Service(store: store, limits: limits, makeTracker: { LiveRaceTracker() })
        for k in 0..<3 { try service.create(Self.settings("t\(k)", by: "throwaway-\(k)"), now: Self.now) }
        #expect(throws: RaceServiceError.tooManyRacesByNewHosts(limit: 3)) {
            try service.create(Self.settings("t3", by: "throwaway-3"), now: Self.now)
        }
        #expect(throws: RaceServiceError.tooManyRacesByNewHosts(limit: 3)) { try service.create(Self.settings("b", by: "bo"), now: Self.now) }
        try service.create(Self.settings("a", by: "ana"), now: Self.now)
        #expect(RaceServiceError.tooManyRacesByNewHosts(limit: 3).reason == "daemon_full_new_hosts")

        // A daemon started again on the store counts the stored races the same way.
        let restarted = Service(store: store, limits: limits, makeTracker: { LiveRaceTracker() })
        #expect(try restarted.resume(now: Self.now + 60) == 4)
        #expect(throws: RaceServiceError.tooManyRacesByNewHosts(limit: 3)) {
            try restarted.create(Self.settings("t4", by: "throwaway-4"), now: Self.now + 60)
        }
        try restarted.create(Self.settings("a2", by: "ana"), now: Self.now + 60)
    }
}
