import Testing
import RunusCore
import Tracking
import Missions
import Features
@testable import Engine
#if canImport(Glibc)
import Glibc
#endif

/// A track from legs of (distance m, pace s/km), sampled every second: along a straight line, or
/// round a circle whose circumference is the whole distance (it ends where it started).
func legsTrack(_ legs: [(Meters, SecondsPerKm)], start: EpochSeconds, circle: Bool = false) -> Track {
    let total = legs.reduce(0) { $0 + $1.0 }
    let radius = total / (2 * .pi)
    var points: [TrackPoint] = []
    var covered: Meters = 0, t = start
    func point(_ s: Meters) -> TrackPoint {
        if circle {
            let angle = 2 * Double.pi * s / total
            let east = radius * sin(angle), north = radius * (1 - cos(angle))
            let bearing = atan2(east, north) * 180 / .pi
            let p = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: bearing, distance: (east * east + north * north).squareRoot())
            return TrackPoint(time: t, latitude: p.latitude, longitude: p.longitude, elevation: 35)
        }
        let p = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: 30, distance: s)
        return TrackPoint(time: t, latitude: p.latitude, longitude: p.longitude, elevation: 35)
    }
    points.append(point(0))
    for (distance, pace) in legs {
        let end = covered + distance
        while covered < end - 1e-9 {
            covered = min(end, covered + 1000 / pace)
            t += 1
            points.append(point(covered))
        }
    }
    return Track(points: points)
}

/// A runner's past for the v4 tests: `count` runs of `distance` m at `pace`, one a day at
/// `hour` UTC, ending the day before `day`; the labelled run's record is appended by the test.
func clockHistory(count: Int, distance: Meters, pace: SecondsPerKm, hour: Double, before day: CivilDate) -> [RunRecord] {
    (0..<count).map { i in
        let start = day.adding(days: -(count - i)).startInstant(utcOffset: 0) + hour * 3600
        return RunRecord(id: "u:past-\(i)", userID: "u", startTime: start, distance: distance, elapsed: distance / 1000 * pace,
                         moving: distance / 1000 * pace, elevationGain: 0, source: "import")
    }
}

/// The run a track makes, as stored.
func record(_ track: Track, id: String) -> RunRecord {
    let m = RunMetrics(track: track)
    return RunRecord(id: id, userID: "u", startTime: m.startTime, distance: m.distance, elapsed: m.elapsed, moving: m.moving,
                     elevationGain: m.elevationGain, source: "import", track: [])
}

@Suite("Mission kinds of schema v4")
struct MissionKindsV4Tests {
    /// A Wednesday: the week so far holds Monday's and Tuesday's runs.
    let day = CivilDate(iso: "2026-12-02")!

    func labels(_ past: [RunRecord], _ track: Track, kind: MissionKind) -> [HistoryLabels.Label] {
        let run = record(track, id: "u:today")
        let history = past + [run]
        return HistoryLabels.labels(history: history, at: history.count - 1, run: MissionRun(track: track), utcOffset: 0)
            .filter { $0.example.kind == kind }
    }

    @Test("ladders: every v4 kind around the runner's endurance, pace, start hour and week; all valid specs")
    func ladders() throws {
        for (hour, distance, pace) in [(6.5, 5000.0, 330.0), (18.5, 8000, 300)] {
            let past = clockHistory(count: 20, distance: distance, pace: pace, hour: hour, before: day)
            let asOf = day.startInstant(utcOffset: 0)
            let state = RunnerState(history: past, asOf: asOf)
            // Weekly volumes as the model learns them (one run against the week, history labels);
            // the policy's week-long ones: `WeeklyVolumeMissionTests`.
            let candidates = CandidateGenerator.candidates(for: state, weeklyVolume: .day)
            for spec in candidates { #expect(try MissionSpec(json: try JSONParser.parse(spec.canonicalJSON)) == spec) }
            let usual = try #require(state.usualStartHour)
            #expect(abs(usual - hour) < 0.01)
            // Clock kinds: limits within 2.5 h of the usual hour, inside their windows.
            let early = candidates.compactMap { if case .earlyBird(let m, let d) = $0 { return (m, d) } else { return nil } }
            let late = candidates.compactMap { if case .nightOwl(let m, let d) = $0 { return (m, d) } else { return nil } }
            if hour < 12 {
                #expect(!early.isEmpty && late.isEmpty)
                #expect(early.allSatisfy { abs(Double($0.0) / 60 - usual) <= 2.5 + 0.25 && (300...600).contains($0.0) })
                #expect(Set(early.map(\.1)).allSatisfy { $0 >= 0.55 * distance && $0 <= 1.45 * distance })
            } else {
                #expect(!late.isEmpty && early.isEmpty)
                #expect(late.allSatisfy { abs(Double($0.0) / 60 - usual) <= 2.5 + 0.25 && (1080...1380).contains($0.0) })
            }
            let loops = candidates.compactMap { if case .loop(let g, let d) = $0 { return (g, d) } else { return nil } }
            #expect(Set(loops.map(\.0)) == [50, 100, 200])
            #expect(loops.allSatisfy { $0.1 >= 0.55 * distance && $0.1 <= 1.65 * distance })
            // Intervals: rep paces 0.8–1.0 × the expected pace over the rep.
            let reps = candidates.compactMap { if case .intervals(let n, let r, let p, let s) = $0 { return (n, r, p, s) } else { return nil } }
            #expect(Set(reps.map(\.1)) == [400, 800, 1000])
            for r in reps {
                let ratio = r.2 / state.expectedPace(over: r.1)
                #expect(ratio >= 0.79 && ratio <= 1.01, "rep pace ratio \(ratio)")
            }
            let fartleks = candidates.filter { $0.kind == .fartlek }
            #expect(fartleks.count == CandidateGenerator.surgeCounts.count * CandidateGenerator.surgeSeconds.count)
            // Weekly volume: Monday's and Tuesday's runs plus a share of the endurance.
            #expect(state.volumeThisWeek == 2 * distance && state.daysLeftInWeek == 5)
            let weekly = candidates.compactMap { if case .weeklyVolume(let d) = $0 { return d } else { return nil } }
            #expect(weekly.allSatisfy { $0 - 2 * distance >= 0.65 * distance && $0 - 2 * distance <= 2.25 * distance })
            for spec in candidates where MissionFeatures.models(spec.kind) {
                #expect(MissionFeatures.vector(spec, state: state).allSatisfy { $0.isFinite })
                #expect(!TodayPolicy.why(spec, state: state).isEmpty)
            }
        }
        // Without runs there is no usual hour: no clock kinds.
        let empty = RunnerState(history: [], asOf: day.startInstant(utcOffset: 0))
        #expect(!CandidateGenerator.candidates(for: empty).contains { $0.kind == .earlyBird || $0.kind == .nightOwl })
    }

    @Test("history labels of early bird and night owl: start before or after the limit, and the distance")
    func clockLabels() throws {
        for (hour, kind) in [(6.5, MissionKind.earlyBird), (19.0, .nightOwl)] {
            let past = clockHistory(count: 10, distance: 5000, pace: 330, hour: hour, before: day)
            // Today's run: 5.5 km starting at the usual hour.
            let start = day.startInstant(utcOffset: 0) + hour * 3600
            let track = legsTrack([(5500, 330)], start: start)
            let measured = RunMetrics(track: track).distance
            let found = labels(past, track, kind: kind)
            #expect(found.count >= 10)
            for l in found {
                let expected: Bool
                switch l.spec {
                case .earlyBird(let before, let d): expected = Int(hour * 60) < before && measured >= d * 0.99
                case .nightOwl(let after, let d): expected = Int(hour * 60) >= after && measured >= d * 0.99
                default: Issue.record("unexpected \(l.spec)"); continue
                }
                #expect(l.example.label == (expected ? 1 : 0), "\(l.spec.canonicalJSON)")
            }
            #expect(found.contains { $0.example.label == 1 } && found.contains { $0.example.label == 0 })
        }
    }

    @Test("history labels of loop: a round route closes every gap, a straight one none")
    func loopLabels() throws {
        let past = clockHistory(count: 10, distance: 5000, pace: 330, hour: 7, before: day)
        let start = day.startInstant(utcOffset: 0) + 7 * 3600
        let round = legsTrack([(5600, 330)], start: start, circle: true)
        let measured = RunMetrics(track: round).distance
        let closed = labels(past, round, kind: .loop)
        #expect(closed.count >= 15)
        for l in closed {
            guard case .loop(_, let d) = l.spec else { continue }
            #expect(l.example.label == (measured >= d * 0.99 ? 1 : 0), "\(l.spec.canonicalJSON)")
        }
        let straight = labels(past, legsTrack([(5600, 330)], start: start), kind: .loop)
        #expect(!straight.isEmpty && straight.allSatisfy { $0.example.label == 0 })
    }

    @Test("history labels of intervals: six fast 420 m reps complete the 400 m sessions of ≤ 6 reps with a slower limit")
    func intervalLabels() throws {
        let past = clockHistory(count: 10, distance: 6000, pace: 360, hour: 7, before: day)
        var legs: [(Meters, SecondsPerKm)] = [(1000, 360)]
        for k in 0..<6 {
            if k > 0 { legs.append((60 * 1000 / 700, 700)) }  // 60 s jog at 11:40/km
            legs.append((420, 280))
        }
        legs.append((1000, 380))
        let track = legsTrack(legs, start: day.startInstant(utcOffset: 0) + 7 * 3600)
        let found = labels(past, track, kind: .intervals)
        #expect(found.count >= 30)
        var decided = 0
        for l in found {
            guard case .intervals(let reps, let rep, let pace, _) = l.spec else { continue }
            // Rep paces within 5 s/km of the 4:40/km run are left to the tolerance.
            guard abs(pace - 280) > 5 else { continue }
            let expected = rep == 400 && reps <= 6 && pace > 280
            #expect(l.example.label == (expected ? 1 : 0), "\(l.spec.canonicalJSON)")
            decided += 1
        }
        #expect(decided >= 25)
        #expect(found.contains { $0.example.label == 1 })
    }

    @Test("history labels of fartlek: eight 40 s surges complete up to 8 surges of up to 30 s")
    func fartlekLabels() throws {
        let past = clockHistory(count: 10, distance: 6000, pace: 360, hour: 7, before: day)
        var legs: [(Meters, SecondsPerKm)] = [(1000, 360)]
        for _ in 0..<8 {
            legs.append((40 * 1000 / (360 / 1.45), 360 / 1.45))
            legs.append((90 * 1000 / 360, 360))
        }
        legs.append((1000, 360))
        let track = legsTrack(legs, start: day.startInstant(utcOffset: 0) + 7 * 3600)
        let found = labels(past, track, kind: .fartlek)
        #expect(found.count == CandidateGenerator.surgeCounts.count * CandidateGenerator.surgeSeconds.count)
        for l in found {
            guard case .fartlek(let n, let seconds) = l.spec else { continue }
            #expect(l.example.label == (n <= 8 && seconds <= 30 ? 1 : 0), "\(l.spec.canonicalJSON)")
        }
    }

    @Test("history labels of weekly volume: the week's runs before plus this one against the target")
    func weeklyLabels() throws {
        // Runs every day of the week before and on Monday and Tuesday: 2 × 5 km so far this week.
        let past = clockHistory(count: 9, distance: 5000, pace: 330, hour: 7, before: day)
        let track = legsTrack([(6000, 330)], start: day.startInstant(utcOffset: 0) + 7 * 3600)
        let measured = RunMetrics(track: track).distance
        let found = labels(past, track, kind: .weeklyVolume)
        #expect(found.count >= 8)
        for l in found {
            guard case .weeklyVolume(let target) = l.spec else { continue }
            #expect(l.example.label == (10_000 + measured >= target * 0.99 ? 1 : 0), "\(l.spec.canonicalJSON)")
            // The feature measures what is left of the target after the week so far.
            let state = RunnerState(history: past, asOf: RunMetrics(track: track).startTime)
            #expect(abs(MissionFeatures.effectiveDistance(l.spec, state: state) - (target - 10_000)) < 1e-6)
        }
        #expect(found.contains { $0.example.label == 1 } && found.contains { $0.example.label == 0 })
    }
}
