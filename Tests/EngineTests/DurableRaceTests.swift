import Testing
import Synchronization
import RunusCore
import Tracking
@testable import Engine

/// Races backed by the store (record 0526): a service that resumes from the store carries on
/// exactly where the live one was.
@Suite("durable races")
struct DurableRaceTests {
    static let start: EpochSeconds = 1_800_000_000
    static let runners: [(UserID, Double)] = [("ana", 4.0), ("bo", 3.8), ("cy", 3.5)]
    typealias Service = RaceService<LiveRaceTracker>

    static func store() throws -> InMemoryStore {
        let store = InMemoryStore()
        for (u, _) in runners { try store.upsertUser(UserProfile(id: u, timeZone: "UTC")) }
        return store
    }

    static func service(_ store: InMemoryStore) -> Service { RaceService(store: store, makeTracker: { LiveRaceTracker() }) }

    /// Creates a 1 km race, joins the runners and starts it.
    static func open(_ service: Service) throws {
        try service.create(RaceSettings(id: "r", name: "1k", distance: 1000, startTime: start, capacity: 5, createdBy: "ana"),
                           now: start - 100)
        for (u, _) in runners { _ = try service.join("r", user: u, token: "token-\(u)", now: start - 50) }
        _ = service.tick(now: start)
    }

    /// Second `k` (5-second batches) of every runner, sent a second after its last point.
    static func feed(_ service: Service, batches: Range<Int>) throws -> [SequencedRaceEvent] {
        var events: [SequencedRaceEvent] = []
        for k in batches {
            for (u, speed) in runners {
                let points = northPoints(start: start, from: 5 * k, to: 5 * k + 4, speed: speed, offset: Double(5 * k) * speed)
                events += (try? service.position("r", token: "token-\(u)", points: points, now: start + Double(5 * k + 5))) ?? []
            }
            events += service.tick(now: start + Double(5 * k + 5)).flatMap(\.1)
        }
        return events
    }

    @Test("a service resumed from the store mid-race ranks as the live one and finishes with the same times, bit for bit")
    func resumeMidRace() throws {
        // Uninterrupted reference.
        let referenceStore = try Self.store()
        let reference = Self.service(referenceStore)
        try Self.open(reference)
        _ = try Self.feed(reference, batches: 0..<30)
        let referenceMid = try reference.ranking("r", now: Self.start + 150)
        _ = try Self.feed(reference, batches: 30..<70)
        let expected = try reference.results("r", now: Self.start + 400)

        // The same commands, with a "crash" after batch 30: the first service is dropped and a
        // new one resumes from the store.
        let store = try Self.store()
        let first = Self.service(store)
        try Self.open(first)
        let before = try Self.feed(first, batches: 0..<30)
        let rankingBefore = try #require(before.last { if case .ranking = $0.event { true } else { false } })
        let resumed = Self.service(store)
        #expect(try resumed.resume(now: Self.start + 150) == 1)
        #expect(try resumed.ranking("r", now: Self.start + 150) == referenceMid)
        #expect(referenceMid.allSatisfy { $0.distance > 400 && $0.status == .running })
        #expect(try resumed.participant("r", token: "token-bo") == "bo", "tokens work after the restart")
        let after = try Self.feed(resumed, batches: 30..<70)
        let got = try resumed.results("r", now: Self.start + 400)
        #expect(got.ranking == expected.ranking)
        #expect(got.awards == expected.awards)
        #expect(got.ranking.allSatisfy { $0.status == .finished })
        // seq keeps rising across the restart.
        let seqs = (before + after).map(\.seq)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "seq must rise across the restart")
        #expect(after.first.map { $0.seq > rankingBefore.seq } == true)
        #expect(try store.rewards(user: "ana").map(\.xp) == (try referenceStore.rewards(user: "ana")).map(\.xp))
    }

    @Test("a race that finished before the restart keeps its results and awards; XP is not awarded again")
    func resumeFinished() throws {
        let store = try Self.store()
        let first = Self.service(store)
        try Self.open(first)
        _ = try Self.feed(first, batches: 0..<70)
        let results = try first.results("r", now: Self.start + 400)
        let ledger = store.rewardCount
        let resumed = Self.service(store)
        #expect(try resumed.resume(now: Self.start + 500) == 1)
        let again = try resumed.results("r", now: Self.start + 500)
        #expect(again.ranking == results.ranking)
        #expect(again.awards == results.awards)
        #expect(store.rewardCount == ledger)
        #expect(try store.raceResults(race: "r").map(\.userID) == results.ranking.map(\.userID))
        // A day after the cutoff it is not resumed (its rows stay).
        #expect(try Self.service(store).resume(now: Self.start + 3600 + 86_400 + 1) == 0)
    }

    @Test("a race whose last runner finished while the daemon was down gets its results at resume, once")
    func finishedWhileDown() throws {
        let store = try Self.store()
        let first = Self.service(store)
        try Self.open(first)
        _ = try Self.feed(first, batches: 0..<30)
        // The cutoff passes while nothing runs.
        let resumed = Self.service(store)
        #expect(try resumed.resume(now: Self.start + 3601) == 1)
        let (ranking, awards) = try resumed.results("r", now: Self.start + 3601)
        #expect(ranking.allSatisfy { $0.status == .outOfTime })
        #expect(awards.isEmpty)
        #expect(try store.raceResults(race: "r").count == 3)
        #expect(try Self.service(store).resume(now: Self.start + 3602) == 1, "resuming again finds the stored results")
    }

    @Test("when the store fails, the command is refused and the room is rebuilt from the log: memory never runs ahead")
    func storeFailure() throws {
        let store = try Self.store()
        let service = Self.service(store)
        try Self.open(service)
        _ = try Self.feed(service, batches: 0..<10)
        let entries = store.raceEntryCount
        store.failRaceWrites.store(true, ordering: .relaxed)
        let points = northPoints(start: Self.start, from: 50, to: 54, speed: 4, offset: 200)
        #expect(throws: InMemoryStore.Conflict.self) {
            _ = try service.position("r", token: "token-ana", points: points, now: Self.start + 55)
        }
        store.failRaceWrites.store(false, ordering: .relaxed)
        #expect(store.raceEntryCount == entries)
        // The refused batch did not count: ana is where the log says, and a resumed service agrees.
        let live = try service.ranking("r", now: Self.start + 55)
        #expect(live.first { $0.userID == "ana" }?.distance ?? 0 < 200 + 1e-9, "the refused batch must not count")
        let resumed = Self.service(store)
        try resumed.resume(now: Self.start + 55)
        #expect(try resumed.ranking("r", now: Self.start + 55) == live)
        _ = try service.position("r", token: "token-ana", points: points, now: Self.start + 56)
        #expect(store.raceEntryCount == entries + 1)
    }

    @Test("cancelled races are not resumed; secrets are stored as digests only")
    func cancelledAndSecrets() throws {
        let store = try Self.store()
        let service = Self.service(store)
        try Self.open(service)
        try service.create(RaceSettings(id: "c", name: "c", distance: 1000, startTime: Self.start + 1000, capacity: 5,
                                        createdBy: "bo", inviteDigest: Service.digest("invite")), now: Self.start)
        _ = try service.cancel("c", by: "bo", now: Self.start + 1)
        let resumed = Self.service(store)
        #expect(try resumed.resume(now: Self.start + 2) == 1)
        #expect(throws: RaceServiceError.unknownRace("c")) { _ = try resumed.summary("c") }
        let log = try store.raceEntries(race: "r")
        #expect(log.allSatisfy { !$0.tokenDigest.contains("token") && $0.tokenDigest.count == 64 })
        #expect(log.first?.tokenDigest == SHA256.hex("token-ana"))
    }
}

@Suite("race runs")
struct RaceRunTests {
    @Test("finishers' and leavers' tracks become runs (source race) with run XP, once; a finisher's run reaches the line")
    func raceRuns() throws {
        let start = DurableRaceTests.start
        let store = try DurableRaceTests.store()
        let service = RaceService(store: store, runRules: PlausibilityRules(), makeTracker: { LiveRaceTracker() })
        try DurableRaceTests.open(service)
        _ = try DurableRaceTests.feed(service, batches: 0..<20)
        // cy leaves at 100 s: their 100 s are a run now.
        _ = try service.leave("r", token: "token-cy", now: start + 101)
        let cy = try #require(try store.run(user: "cy", id: "r"))
        #expect(cy.source == "race")
        #expect(abs(cy.distance - 99 * 3.5) < 10, "\(cy.distance)")
        _ = try DurableRaceTests.feed(service, batches: 20..<70)
        let (ranking, _) = try service.results("r", now: start + 400)
        for user in ["ana", "bo"] {
            let run = try #require(try store.run(user: user, id: "r"), "\(user) has no race run")
            #expect(run.source == "race")
            #expect(run.distance >= 1000 - 1, "a finisher's run reaches the line: \(run.distance)")
            let finish = try #require(ranking.first { $0.userID == user }?.finishTime)
            #expect(run.elapsed >= finish - 1 && run.elapsed <= finish + 5)
            #expect(try store.rewards(user: user).contains { $0.reason == RewardReason.run && $0.refID == "r" })
        }
        // cy's run is not stored twice, and a resume does not store again.
        let ledger = store.rewardCount
        #expect(try store.runs(user: "cy", from: 0, to: .infinity).count == 1)
        _ = try RaceService(store: store, runRules: PlausibilityRules(), makeTracker: { LiveRaceTracker() }).resume(now: start + 500)
        #expect(store.rewardCount == ledger)
    }
}

/// A tracker whose distance follows a script, to see what rooms show when it goes back.
struct ScriptedTracker: RaceDistanceTracker {
    let script: [Meters]
    var calls = 0
    mutating func append(_ points: [TrackPoint]) { calls += 1 }
    var distance: Meters { script[min(calls, script.count) - 1 < 0 ? 0 : min(calls, script.count) - 1] }
    var profile: DistanceProfile { DistanceProfile(times: [], distances: [], moving: []) }
}

@Suite("race live distance")
struct RaceShownDistanceTests {
    @Test("a runner's shown distance never goes back while the tracker's does (an undecided part holds it)")
    func neverBackwards() throws {
        let start: EpochSeconds = 1_800_000_000
        let script: [Meters] = [100, 200, 0, 0, 250, 240, 400]
        var room = RaceRoom(settings: RaceSettings(id: "r", name: "r", distance: 5000, startTime: start, capacity: 2),
                            makeTracker: { ScriptedTracker(script: script) })
        _ = try room.join(user: "ana", tokenDigest: "a", now: start - 1)
        var shown: [Meters] = []
        for k in 0..<script.count {
            let t = start + Double(k * 5)
            let events = try room.position(tokenDigest: "a", points: [TrackPoint(time: t + 1, latitude: 0, longitude: 0)], now: t + 2)
            for case .ranking(let entries) in events { shown.append(entries[0].distance) }
        }
        #expect(shown == [100, 200, 200, 200, 250, 250, 400])
    }
}
