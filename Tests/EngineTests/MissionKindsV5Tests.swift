import Testing
import Synchronization
import RunusCore
import Tracking
import TrackFormats
import Missions
import Features
@testable import Engine
#if canImport(Glibc)
import Glibc
#endif

/// A straight track of `distance` m at a steady `pace` s/km, one fix a second, heading `bearing`
/// degrees from a point `offset` metres north of the reference point (another bearing or offset:
/// other ground).
func straightTrack(_ distance: Meters, pace: SecondsPerKm, start: EpochSeconds, bearing: Double = 30,
                   offset: Meters = 0) -> Track {
    let origin = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: 0, distance: offset)
    var points: [TrackPoint] = []
    var covered: Meters = 0, t = start
    func point(_ s: Meters) -> TrackPoint {
        let p = Geodesy.destination(latitude: origin.latitude, longitude: origin.longitude, bearing: bearing, distance: s)
        return TrackPoint(time: t, latitude: p.latitude, longitude: p.longitude, elevation: 35)
    }
    points.append(point(0))
    while covered < distance - 1e-9 {
        covered = min(distance, covered + 1000 / pace)
        t += 1
        points.append(point(covered))
    }
    return Track(points: points)
}

@Suite("Mission kinds of schema v5: explorer and personal best")
struct MissionKindsV5Tests {
    let day = CivilDate(iso: "2026-12-02")!

    /// `count` daily runs of `distance` m at `pace` on the same straight route, ending the day
    /// before `day`, as stored (track bytes kept) and as digests.
    func sameRoute(count: Int, distance: Meters, pace: SecondsPerKm) -> (records: [RunRecord], digests: [RunDigest]) {
        var records: [RunRecord] = [], digests: [RunDigest] = []
        for i in 0..<count {
            let start = day.adding(days: -(count - i)).startInstant(utcOffset: 0) + 7 * 3600
            let track = straightTrack(distance, pace: pace, start: start)
            var r = record(track, id: "u:past-\(i)")
            r.track = CompactTrackCodec.encode(track)
            records.append(r)
            digests.append(try! #require(RunDigest(run: MissionRun(track: track))))
        }
        return (records, digests)
    }

    func labels(_ past: (records: [RunRecord], digests: [RunDigest]), _ track: Track, kind: MissionKind,
                withDigests: Bool = true) -> [HistoryLabels.Label] {
        let history = past.records + [record(track, id: "u:today")]
        return HistoryLabels.labels(history: history, at: history.count - 1, run: MissionRun(track: track), utcOffset: 0,
                                    digests: withDigests ? past.digests : [])
            .filter { $0.example.kind == kind }
    }

    @Test("ladders: explorer shares × distances once ground is known; personal best over each distance with a best")
    func ladders() throws {
        let past = sameRoute(count: 12, distance: 5000, pace: 330)
        let asOf = day.startInstant(utcOffset: 0)
        let state = RunnerState(history: past.records, asOf: asOf, digests: past.digests)
        // Every run on the same route: after the first, all of each run's cells were known.
        let familiarity = try #require(state.groundFamiliarity)
        #expect(familiarity > 0.95, "familiarity \(familiarity)")
        let candidates = CandidateGenerator.candidates(for: state)
        for spec in candidates { #expect(try MissionSpec(json: try JSONParser.parse(spec.canonicalJSON)) == spec) }
        let explorer = candidates.compactMap { if case .explorer(let f, let d) = $0 { return (f, d) } else { return nil } }
        #expect(Set(explorer.map(\.0)) == Set(CandidateGenerator.newFractionLadder))
        #expect(explorer.allSatisfy { $0.1 >= 0.55 * 5000 && $0.1 <= 1.45 * 5000 })
        // 5 km runs: bests over 1 km, a mile, 3 km and 5 km; 10 km is beyond 1.5 × the endurance.
        let bests = candidates.compactMap { if case .personalBest(let d) = $0 { return d } else { return nil } }
        #expect(bests == [1000, RunMetrics.mile, 3000, 5000])
        for d in bests {
            let t = try #require(state.bestEfforts[d])
            #expect(abs(t - d / 1000 * 330) < 0.05 * d / 1000 * 330, "best over \(d): \(t) s")
        }
        for spec in candidates where spec.kind == .explorer || spec.kind == .personalBest {
            #expect(MissionFeatures.vector(spec, state: state).allSatisfy { $0.isFinite })
            #expect(!TodayPolicy.why(spec, state: state).isEmpty)
        }
        // The same runs without digests (summaries, rows of older code): neither kind, no trap.
        let bare = RunnerState(history: past.records, asOf: asOf)
        #expect(bare.groundFamiliarity == nil && bare.bestEfforts.isEmpty)
        #expect(!CandidateGenerator.candidates(for: bare).contains { $0.kind == .explorer || $0.kind == .personalBest })
        let v = MissionFeatures.vector(.personalBest(distance: 5000), state: bare)
        #expect(v.allSatisfy { $0.isFinite })
    }

    @Test("features: familiarity and the share asked for explorer; the best's pace against the runner's for personal best")
    func features() throws {
        let past = sameRoute(count: 12, distance: 5000, pace: 330)
        let state = RunnerState(history: past.records, asOf: day.startInstant(utcOffset: 0), digests: past.digests)
        let names = MissionFeatures.schema.features.map(\.name)
        func value(_ spec: MissionSpec, _ name: String) throws -> Double {
            MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: name))]
        }
        #expect(abs(try value(.explorer(minNewFraction: 0.6, minDistance: 5000), "new_fraction_explorer") - log(2)) < 1e-12)
        #expect(try value(.explorer(minNewFraction: 0.6, minDistance: 5000), "familiarity_explorer") == state.groundFamiliarity)
        #expect(try value(.distance(minDistance: 5000), "familiarity_explorer") == 0)
        let best = try #require(state.bestEfforts[5000]) / 5
        let rel = try value(.personalBest(distance: 5000), "rel_pace_personal_best")
        #expect(abs(rel - log(state.expectedPace(over: 5000) / best)) < 1e-12)
        #expect(try value(.pace(maxPace: 300, minDistance: 5000), "rel_pace_personal_best") == 0)
        // Schema v6 keeps these features and changes the race pace they read (record 0651); v7
        // adds the two start-share terms (record 0653); v8 changes the race pace again (0654);
        // v9 adds the climb share of hills (0656), v10 the effort share of distance in time (0657),
        // v11 the surge share of fartlek (0658), v12 the run shares of early bird and night owl (0659),
        // v13 the rep and steady shares of intervals (0662), v14 the log odds of the runner's record
        // on the kind (0664), v15 per kind the reach share and the record (0665: 2 × 18 terms).
        #expect(MissionFeatures.schema.version == 15 && MissionFeatures.schema.features.count == 131)
    }

    @Test("explorer history labels: a run on other ground completes, the usual route fails, no labels without digests")
    func explorerLabels() throws {
        let past = sameRoute(count: 10, distance: 5000, pace: 330)
        let start = day.startInstant(utcOffset: 0) + 7 * 3600
        // 6 km heading east from 6 km north: no cell of the usual route (heading 30°, 4.3 km north at most).
        let elsewhere = labels(past, straightTrack(6000, pace: 330, start: start, bearing: 90, offset: 6000), kind: .explorer)
        #expect(!elsewhere.isEmpty)
        for l in elsewhere {
            guard case .explorer(_, let d) = l.spec else { continue }
            #expect(l.example.label == (d <= 6000 ? 1 : 0), "\(l.spec.canonicalJSON)")
        }
        let usual = labels(past, straightTrack(6000, pace: 330, start: start), kind: .explorer)
        #expect(!usual.isEmpty)
        // The first 5 km are known ground: 1 km of 6 is new, under every share but 0.1.
        for l in usual {
            guard case .explorer(let f, let d) = l.spec else { continue }
            #expect(l.example.label == (f <= 0.1 && d <= 6000 ? 1 : 0), "\(l.spec.canonicalJSON)")
        }
        #expect(labels(past, straightTrack(6000, pace: 330, start: start), kind: .explorer, withDigests: false).isEmpty)
    }

    @Test("personal-best history labels: faster than every earlier effort completes, slower fails")
    func personalBestLabels() throws {
        let past = sameRoute(count: 10, distance: 5000, pace: 330)
        let start = day.startInstant(utcOffset: 0) + 7 * 3600
        let faster = labels(past, straightTrack(5200, pace: 310, start: start, bearing: 120), kind: .personalBest)
        #expect(!faster.isEmpty)
        #expect(Set(faster.map(\.spec)) == [.personalBest(distance: 1000), .personalBest(distance: RunMetrics.mile),
                                            .personalBest(distance: 3000), .personalBest(distance: 5000)])
        #expect(faster.allSatisfy { $0.example.label == 1 })
        let slower = labels(past, straightTrack(5200, pace: 350, start: start), kind: .personalBest)
        #expect(slower.count == 4 && slower.allSatisfy { $0.example.label == 0 })
        // Stopping at 4 km: the 5 km best is not beaten; the shorter ones are.
        let short = labels(past, straightTrack(4000, pace: 310, start: start), kind: .personalBest)
        for l in short {
            guard case .personalBest(let d) = l.spec else { continue }
            #expect(l.example.label == (d <= 4000 ? 1 : 0), "\(d)")
        }
        #expect(labels(past, straightTrack(5200, pace: 310, start: start), kind: .personalBest, withDigests: false).isEmpty)
    }

    @Test("digests of stored runs: nil for no track or bytes that do not decode; the cache reads a track once")
    func storedDigests() throws {
        #expect(RunDigests.digest(track: nil) == nil)
        #expect(RunDigests.digest(track: [0xff, 0x00, 0x13]) == nil)
        #expect(RunDigests.digest(track: []) == nil)
        let past = sameRoute(count: 3, distance: 3000, pace: 330)
        let cache = RunDigestCache(capacity: 10)
        let store = try MemoryStoreForDigests(records: past.records)
        let first = try RunDigests.digests(of: past.records.map { var r = $0; r.track = nil; return r }, store: store, cache: cache)
        #expect(first == past.records.compactMap { RunDigests.digest(track: $0.track) } && first.count == 3)
        #expect(store.reads.withLock { $0 } == 3 && cache.count == 3)
        _ = try RunDigests.digests(of: past.records.map { var r = $0; r.track = nil; return r }, store: store, cache: cache)
        #expect(store.reads.withLock { $0 } == 3)
        // A summary-only run has no digest and is not read again either.
        let summary = RunRecord(id: "u:summary", userID: "u", startTime: 1, distance: 5000, elapsed: 1500, moving: 1500,
                                elevationGain: 0, source: "app")
        #expect(try RunDigests.digests(of: [summary], store: store, cache: cache).isEmpty)
        #expect(cache.lookup(summary) != nil)
    }

    @Test("the digest cache tells runs apart by the bytes of their ids: \"r\\u{E9}\" and \"re\\u{301}\" (one Swift String) keep their own digests")
    func digestsByIdBytes() throws {
        let start = day.startInstant(utcOffset: 0) - 86_400
        let tracks = [straightTrack(5000, pace: 330, start: start), straightTrack(5000, pace: 300, start: start, bearing: 90)]
        var records: [RunRecord] = []
        for (id, track) in zip(["u:r\u{E9}", "u:re\u{301}"], tracks) {
            var r = record(track, id: id)
            r.track = CompactTrackCodec.encode(track)
            r.distance = 5000  // one start and one distance: the ids alone tell the runs apart
            records.append(r)
        }
        #expect(records[0].id == records[1].id && records[0].startTime == records[1].startTime,
                "the two spellings are one String to Swift")
        let expected = records.compactMap { RunDigests.digest(track: $0.track) }
        #expect(expected.count == 2 && expected[0] != expected[1])
        let cache = RunDigestCache()
        let store = try MemoryStoreForDigests(records: records)
        #expect(try RunDigests.digests(of: records, store: store, cache: cache) == expected)
        #expect(cache.count == 2)
        #expect(try RunDigests.digests(of: records, store: store, cache: cache) == expected)
    }

    @Test("digests kept in the store (record 0648): a second daemon reads no track; one kept for other totals, or bytes that do not decode, are computed again")
    func keptDigests() throws {
        let past = sameRoute(count: 3, distance: 3000, pace: 330)
        let summaries = past.records.map { var r = $0; r.track = nil; return r }
        let expected = past.records.compactMap { RunDigests.digest(track: $0.track) }
        let store = try MemoryStoreForDigests(records: past.records, keepsDigests: true)
        #expect(try RunDigests.digests(of: summaries, store: store, cache: RunDigestCache()) == expected)
        #expect(store.reads.withLock { $0 } == 3 && store.kept.withLock { $0.count } == 3)
        // A new daemon (an empty cache): every digest comes from the store, bit for bit.
        #expect(try RunDigests.digests(of: summaries, store: store, cache: RunDigestCache()) == expected)
        #expect(try RunDigests.digests(of: summaries, store: store, cache: nil) == expected)
        #expect(store.reads.withLock { $0 } == 3)
        // Kept for a run stored with other totals, or unreadable: computed again and replaced.
        let first = try #require(summaries.first)
        store.kept.withLock { all in
            all[[first.userID, first.id]] = StoredRunDigest(userID: first.userID, runID: first.id, start: first.startTime,
                                                            distance: first.distance + 1, bytes: RunDigestCodec.encode(nil))
            let second = summaries[1]
            all[[second.userID, second.id]] = StoredRunDigest(userID: second.userID, runID: second.id, start: second.startTime,
                                                              distance: second.distance, bytes: [RunDigestCodec.version, 7])
        }
        #expect(try RunDigests.digests(of: summaries, store: store, cache: RunDigestCache()) == expected)
        #expect(store.reads.withLock { $0 } == 5)
        #expect(store.kept.withLock { $0[[first.userID, first.id]]?.matches(first) } == true)
    }
}

@Suite("explorer and personal best through missions.today and runs.ingest")
struct MissionKindsV5ServiceTests {
    let day = CivilDate(iso: "2026-12-02")!

    @Test("stored tracks give the day's offers both kinds (digests read once through the cache); a run on new ground, faster, completes them")
    func offeredAndChecked() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "u"))
        let ingestion = RunIngestion(store: store)
        for i in 0..<8 {
            let start = day.adding(days: -(8 - i)).startInstant(utcOffset: 0) + 7 * 3600
            _ = try ingestion.ingest(user: "u", clientRunID: "past-\(i)", track: straightTrack(5000, pace: 330, start: start),
                                     now: start + 3600)
        }
        let cache = RunDigestCache()
        let service = MissionService(store: store, scorer: SyntheticScorer(), policy: TodayPolicy(stretchBand: nil),
                                     digestCache: cache)
        let now = day.startInstant(utcOffset: 0) + 6 * 3600
        // Every kind with a candidate gets its best one when as many missions as kinds are asked.
        let offers = try service.today(user: "u", day: day, count: MissionFeatures.kinds.count, now: now).missions
        let explorer = try #require(offers.first { $0.spec.kind == .explorer }, "\(offers.map(\.spec.kind.rawValue))")
        let best = try #require(offers.first { $0.spec.kind == .personalBest })
        #expect(cache.count == 8)
        #expect(explorer.why.contains("never run") && best.why.contains("your best"))
        // 7.5 km heading east from 6 km north at 5:00/km: new ground, faster than every best.
        let start = day.startInstant(utcOffset: 0) + 7 * 3600
        _ = try ingestion.ingest(user: "u", clientRunID: "today", track: straightTrack(7500, pace: 300, start: start, bearing: 90, offset: 6000),
                                 now: start + 3600)
        let stored = try store.assignments(user: "u", day: day)
        for id in [explorer.assignmentID, best.assignmentID] {
            let a = try #require(stored.first { $0.id == id })
            #expect(a.status == .completed, "\(a.specJSON): \(a.status)")
        }
    }
}

/// A run store over fixed records that counts the track reads (`run(user:id:)`).
final class MemoryStoreForDigests: RunStore, Sendable {
    let records: [RunRecord]
    let reads = Mutex<Int>(0)
    /// Digests kept as a store keeps them (record 0648), by [user, run]; none when not `keeps`.
    let kept = Mutex<[[String]: StoredRunDigest]>([:])
    let keeps: Bool

    init(records: [RunRecord], keepsDigests: Bool = false) throws { self.records = records; keeps = keepsDigests }

    func runDigests(user: UserID) throws -> [StoredRunDigest] { kept.withLock { Array($0.values.filter { $0.userID == user }) } }
    func storeRunDigests(_ digests: [StoredRunDigest]) throws {
        guard keeps else { return }
        kept.withLock { all in
            for d in digests where records.contains(where: { $0.userID == d.userID && $0.id == d.runID }) { all[[d.userID, d.runID]] = d }
        }
    }

    func insertRun(_ run: RunRecord) throws -> Bool { false }
    func run(user: UserID, id: String) throws -> RunRecord? {
        reads.withLock { $0 += 1 }
        return records.first { $0.userID == user && $0.id == id }
    }
    func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord] {
        records.filter { $0.userID == user && $0.startTime >= from && $0.startTime < to }
    }
}
