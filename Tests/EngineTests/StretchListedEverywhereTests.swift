import Testing
import RunusCore
import Tracking
import Missions
@testable import Engine

/// Record 0536: the day's stretch mission is in every list, flagged, and a run that completes
/// it is paid like any other; record 0535: a refresh leaves the runner's own missions alone.
@Suite("stretch and custom missions in every list")
struct StretchListedEverywhereTests {
    let day = CivilDate(iso: "2026-11-29")!

    @Test("today, progress and the run answer list the stretch mission, flagged; a refresh replaces offers, not the runner's own")
    func stretchEverywhere() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        for run in history(user: "ana", runs: 15, distance: 6000, pace: 360, end: day.startInstant(utcOffset: 0)) {
            _ = try store.insertRun(run)
        }
        let now = day.startInstant(utcOffset: 0) + 7 * 3600
        let service = MissionService(store: store, scorer: SyntheticScorer())
        let custom = try service.custom(user: "ana", spec: .distance(minDistance: 1000), day: nil, now: now)
        #expect(custom.mission.isCustom && custom.mission.assignmentID == "custom:2026-11-29:1")
        let today = try service.today(user: "ana", day: nil, count: 3, now: now)
        let stretch = try #require(today.missions.first { $0.isStretch }, "the synthetic scorer has a candidate in 0.4–0.5")
        #expect(today.missions.filter { !$0.isStretch && !$0.isCustom }.count == 3)
        // The first offered set is round 0 although a custom mission came first.
        #expect(today.missions.filter { !$0.isCustom }.allSatisfy { $0.assignmentID.hasPrefix("2026-11-29-0-") })
        #expect(today.missions.contains(custom.mission))
        let progress = try MissionProgressService(store: store).progress(user: "ana", day: nil, live: nil, now: now)
        #expect(progress.missions.map(\.assignment.id) == today.missions.map(\.assignmentID))
        #expect(progress.missions.first { $0.assignment.id == stretch.assignmentID }?.assignment.role == .stretch)

        // A long run after the offers: every mission open is answered, the stretch one flagged.
        let track = straightRun(distance: 12_000, pace: 330, start: now + 600)
        let answer = try RunIngestion(store: store).ingest(user: "ana", clientRunID: "long", track: track, now: now + 600 + 4000)
        let entries = try #require(answer["missions"]?.arrayValue)
        #expect(Set(entries.compactMap { $0["id"]?.stringValue }) == Set(today.missions.map(\.assignmentID)))
        for e in entries {
            let role = MissionRole(assignmentID: e["id"]?.stringValue ?? "")
            #expect(e["stretch"]?.boolValue == (role == .stretch) && e["custom"]?.boolValue == (role == .custom))
        }
        let paid = entries.filter { $0["verdict"] == "completed" }.compactMap { $0["xp_awarded"]?.intValue }.reduce(0, +)
        #expect(answer["xp"]?["missions"]?.intValue == paid)

        // A refresh replaces the open offers and keeps the runner's own mission.
        let later = now + 600 + 5000
        let refreshed = try service.today(user: "ana", day: nil, count: 3, now: later, refresh: true)
        #expect(refreshed.missions.contains { $0.assignmentID == custom.mission.assignmentID })
        let stored = try store.assignments(user: "ana", day: day)
        for a in stored where a.role != .custom && a.offeredAt == now {
            #expect(a.status == .completed || a.status == .replaced, "\(a.id): \(a.status)")
        }
        #expect(!stored.contains { $0.status == .expired })
    }
}
