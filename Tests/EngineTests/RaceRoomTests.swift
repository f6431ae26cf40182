import Testing
import RunusCore
import Tracking
@testable import Engine

/// Points going north at `speed` m/s, one a second, from second `from` to `to` after `start`,
/// continuing from `offset` metres.
func northPoints(start: EpochSeconds, from: Int, to: Int, speed: Double, offset: Meters = 0) -> [TrackPoint] {
    (from...to).map { s in
        let d = offset + Double(s - from) * speed
        let p = Geodesy.destination(latitude: 35.0, longitude: 139.0, bearing: 0, distance: d)
        return TrackPoint(time: start + Double(s), latitude: p.latitude, longitude: p.longitude)
    }
}

@Suite("RaceRoom")
struct RaceRoomTests {
    static let start: EpochSeconds = 1_800_000_000
    typealias Room = RaceRoom<RecomputingRaceTracker>

    func room(distance: Meters = 1000, capacity: Int = 4) -> Room {
        Room(settings: RaceSettings(id: "r1", name: "Test mile", distance: distance, startTime: Self.start, capacity: capacity),
             makeTracker: { RecomputingRaceTracker() })
    }

    @Test("joins before the start show the participants and the countdown; joining closes at the start")
    func waiting() throws {
        var r = room(capacity: 2)
        let events = try r.join(user: "ana", tokenDigest: "t-ana", now: Self.start - 60)
        #expect(events == [.waiting(participants: ["ana"], countdown: 60)])
        #expect(throws: RaceError.alreadyJoined("ana")) { try r.join(user: "ana", tokenDigest: "x", now: Self.start - 50) }
        _ = try r.join(user: "bo", tokenDigest: "t-bo", now: Self.start - 50)
        #expect(throws: RaceError.full(capacity: 2)) { try r.join(user: "cy", tokenDigest: "t-cy", now: Self.start - 40) }
        // Leaving before the start frees the place.
        _ = try r.leave(tokenDigest: "t-bo", now: Self.start - 30)
        _ = try r.join(user: "cy", tokenDigest: "t-cy", now: Self.start - 20)
        let started = r.tick(now: Self.start)
        #expect(started.first == .started(at: Self.start))
        #expect(r.phase == .running)
        #expect(throws: RaceError.alreadyStarted) { try r.join(user: "di", tokenDigest: "t-di", now: Self.start + 1) }
    }

    @Test("rankings by distance while running; finish times interpolated at the line; results in order")
    func raceToTheLine() throws {
        var r = room(distance: 1000)
        _ = try r.join(user: "ana", tokenDigest: "a", now: Self.start - 10)
        _ = try r.join(user: "bo", tokenDigest: "b", now: Self.start - 10)
        _ = r.tick(now: Self.start)
        // Points before the start are ignored.
        _ = try r.position(tokenDigest: "a", points: northPoints(start: Self.start - 5, from: 0, to: 4, speed: 4), now: Self.start)
        _ = try r.position(tokenDigest: "a", points: northPoints(start: Self.start, from: 0, to: 100, speed: 4), now: Self.start + 100)
        let mid = try r.position(tokenDigest: "b", points: northPoints(start: Self.start, from: 0, to: 100, speed: 3), now: Self.start + 100)
        guard case .ranking(let ranking) = mid.last else { Issue.record("expected a ranking"); return }
        #expect(ranking.map(\.userID) == ["ana", "bo"])
        // 1 m tolerance: local distance vs the straight-line construction over 400 m.
        #expect(abs(ranking[0].distance - 400) < 1 && abs(ranking[1].gap - 100) < 1)
        // Ana crosses 1000 m at 250 s; Bo at 333.3 s.
        _ = try r.position(tokenDigest: "a", points: northPoints(start: Self.start, from: 100, to: 260, speed: 4, offset: 400), now: Self.start + 260)
        let end = try r.position(tokenDigest: "b", points: northPoints(start: Self.start, from: 100, to: 340, speed: 3, offset: 300), now: Self.start + 340)
        guard case .finished(let results) = end.last else { Issue.record("expected results, got \(end)"); return }
        #expect(r.phase == .finished)
        #expect(results.map(\.userID) == ["ana", "bo"])
        // One second tolerance: interpolation between 1 Hz fixes.
        #expect(abs(results[0].finishTime! - 250) < 1 && abs(results[1].finishTime! - 1000.0 / 3) < 1,
                "finish times \(results.map { $0.finishTime ?? -1 })")
        #expect(abs(results[1].timeGap! - (1000.0 / 3 - 250)) < 1)
        #expect(throws: RaceError.finished) { try r.position(tokenDigest: "a", points: [], now: Self.start + 400) }
    }

    @Test("a runner in a car does not advance; one who stops sending is marked; one who leaves ranks last")
    func cheatsAndDropouts() throws {
        var r = room(distance: 5000)
        r.rules.maximumLag = 3600  // ten-minute batches; freshness has its own test
        for u in ["ana", "car", "quiet", "gone"] { _ = try r.join(user: u, tokenDigest: u, now: Self.start - 10) }
        _ = r.tick(now: Self.start)
        _ = try r.position(tokenDigest: "ana", points: northPoints(start: Self.start, from: 0, to: 600, speed: 3.5), now: Self.start + 600)
        // 100 s on foot, then 400 s at 14 m/s in a car, then on foot again.
        let car = northPoints(start: Self.start, from: 0, to: 100, speed: 3.5)
            + northPoints(start: Self.start, from: 101, to: 500, speed: 14, offset: 350)
            + northPoints(start: Self.start, from: 501, to: 600, speed: 3.5, offset: 350 + 400 * 14)
        _ = try r.position(tokenDigest: "car", points: car, now: Self.start + 600)
        _ = try r.position(tokenDigest: "quiet", points: northPoints(start: Self.start, from: 0, to: 100, speed: 3), now: Self.start + 100)
        _ = try r.position(tokenDigest: "gone", points: northPoints(start: Self.start, from: 0, to: 600, speed: 4), now: Self.start + 600)
        let events = try r.leave(tokenDigest: "gone", now: Self.start + 601)
        guard case .ranking(let ranking) = events.last else { Issue.record("expected a ranking"); return }
        let byUser = Dictionary(uniqueKeysWithValues: ranking.map { ($0.userID, $0) })
        #expect(ranking.first?.userID == "ana")
        #expect(byUser["car"]!.distance < 800, "the car's 5.6 km must not count: \(byUser["car"]!.distance)")
        #expect(byUser["quiet"]!.status == .stopped)
        #expect(byUser["gone"]!.status == .left && ranking.last?.userID == "gone")
    }

    @Test("the race starts by itself and ends at the cutoff with everyone still out of time")
    func cutoff() throws {
        var r = room(distance: 1000)
        _ = try r.join(user: "ana", tokenDigest: "a", now: Self.start - 10)
        #expect(r.tick(now: Self.start - 1) == [.waiting(participants: ["ana"], countdown: 1)])
        _ = r.tick(now: Self.start + 5)
        #expect(r.phase == .running)
        let end = r.tick(now: Self.start + r.settings.cutoff)
        guard case .finished(let results) = end.last else { Issue.record("expected results"); return }
        #expect(results.map(\.status) == [.outOfTime])
    }

    @Test("the distance a room credits equals the offline run record of the same points")
    func matchesOffline() throws {
        var r = room(distance: 50_000)
        _ = try r.join(user: "ana", tokenDigest: "a", now: Self.start - 10)
        _ = r.tick(now: Self.start)
        var rng = SeededGenerator(seed: 9)
        var all: [TrackPoint] = []
        var offset: Meters = 0
        for chunk in 0..<20 {
            let speed = rng.uniform(2.5, 4.5)
            let pts = northPoints(start: Self.start, from: chunk * 30, to: chunk * 30 + 29, speed: speed, offset: offset)
            offset += 30 * speed
            all += pts
            _ = try r.position(tokenDigest: "a", points: pts, now: pts.last!.time)
        }
        let offline = RunMetrics(track: Track(points: all)).distance
        #expect(abs(r.ranking(now: Self.start + 600)[0].distance - offline) < 1e-6)
    }

    @Test("points ahead of the server clock are refused and change nothing, points too old do not count (found 2026-12-01: a 5 km finish in 81 s)")
    func serverClockDecides() throws {
        var r = room(distance: 5000)
        _ = try r.join(user: "ana", tokenDigest: "a", now: Self.start - 10)
        _ = r.tick(now: Self.start)
        // 90 points a minute apart, sent two seconds after the start: 89 of them in the future.
        let future = northPoints(start: Self.start, from: 0, to: 89, speed: 1).enumerated().map { i, p in
            TrackPoint(time: Self.start + Double(i) * 60, latitude: p.latitude + Double(i) * 0.0005, longitude: p.longitude)
        }
        #expect(throws: RaceError.pointInTheFuture(index: 1, time: Self.start + 60, now: Self.start + 2, limit: 10)) {
            try r.position(tokenDigest: "a", points: future, now: Self.start + 2)
        }
        #expect(r.ranking(now: Self.start + 2)[0].distance == 0)
        // Points older than 300 s do not count; the fresh ones of the batch do.
        let late = northPoints(start: Self.start, from: 0, to: 400, speed: 3)
        _ = try r.position(tokenDigest: "a", points: late, now: Self.start + 400)
        let counted = r.ranking(now: Self.start + 400)[0].distance
        // 300 s at 3 m/s; 2 % for the local-distance construction and the first fix of the part.
        #expect(abs(counted - 900) < 900 * 0.02, "only the last 300 s of the batch count: \(counted)")
        // A point 10 s ahead (clock skew) is accepted.
        let skewed = northPoints(start: Self.start + 10, from: 400, to: 400, speed: 3, offset: 1200)
        #expect(throws: Never.self) { try r.position(tokenDigest: "a", points: skewed, now: Self.start + 400) }
    }

    @Test("a finish faster than the world record allows is refused and disqualifies the runner")
    func superhumanFinish() throws {
        var r = room(distance: 42_195)
        r.rules.maximumLag = 7200  // whole-race batches; freshness has its own test
        _ = try r.join(user: "ana", tokenDigest: "a", now: Self.start - 10)
        _ = try r.join(user: "bo", tokenDigest: "b", now: Self.start - 10)
        _ = r.tick(now: Self.start)
        // A marathon at 6.9 m/s, just under the vehicle rule's 7 m/s: 1:41:55, where the record
        // is 2:00:35 and 0.9 × the record 1:48:31. Timed honestly, but no runner does it.
        let fast = northPoints(start: Self.start, from: 0, to: 6150, speed: 6.9)
        #expect(throws: RaceError.self) { try r.position(tokenDigest: "a", points: fast, now: Self.start + 6150) }
        #expect(throws: RaceError.disqualified) {
            try r.position(tokenDigest: "a", points: northPoints(start: Self.start, from: 6151, to: 6152, speed: 3, offset: 43_000), now: Self.start + 6152)
        }
        let honest = try r.position(tokenDigest: "b", points: northPoints(start: Self.start, from: 0, to: 6151, speed: 6.2), now: Self.start + 6151)
        #expect(r.ranking(now: Self.start + 6151).map(\.status) == [.running, .disqualified])
        _ = honest
        let done = try r.position(tokenDigest: "b", points: northPoints(start: Self.start, from: 6152, to: 6900, speed: 6.2, offset: 6151 * 6.2),
                                  now: Self.start + 6900)
        guard case .finished(let results) = done.last else { Issue.record("expected results, got \(done)"); return }
        #expect(results.map(\.userID) == ["bo", "ana"])
        #expect(results.map(\.status) == [.finished, .disqualified])
    }
}
