import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// What a policy can see of a runner: statistics of the runs as measured (GPS distances and
/// moving paces), never the latent state.
struct ObservedHistory: Sendable {
    /// Exponentially weighted mean of measured run distances (same weight as `Physiology`),
    /// metres; nil before the first run.
    private(set) var endurance: Meters?
    /// Recent moving paces, s/km, newest last (at most 10).
    private(set) var recentPaces: [SecondsPerKm] = []

    /// Recent runs as (start, measured distance), oldest first; the long-run missions' reference.
    private(set) var recentRuns: [(start: EpochSeconds, distance: Meters)] = []

    /// The longest measured run that started in the 28 days before `instant` (as the long-run
    /// check counts them), metres; 0 without one.
    func longest28d(before instant: EpochSeconds) -> Meters {
        let from = instant - Double(MissionEvaluator.longRunWindowDays) * 86_400
        return recentRuns.filter { $0.start >= from && $0.start < instant }.map(\.distance).max() ?? 0
    }

    /// The measured distance of the runs that started in the local calendar week (Monday to
    /// Sunday in `utcOffset`) of `instant`, before it, metres (what a weekly-volume check adds to
    /// the day's run).
    func weekSoFar(before instant: EpochSeconds, utcOffset: Int) -> Meters {
        let day = CivilDate(instant: instant, utcOffset: utcOffset)
        let monday = day.daysSinceEpoch - (day.isoWeekday - 1)
        return recentRuns.filter {
            $0.start < instant && CivilDate(instant: $0.start, utcOffset: utcOffset).daysSinceEpoch >= monday
        }.reduce(0) { $0 + $1.distance }
    }

    mutating func record(start: EpochSeconds, distance: Meters, movingPace: SecondsPerKm?) {
        recentRuns.append((start, distance))
        if let first = recentRuns.first, start - first.start > 40 * 86_400 { recentRuns.removeFirst() }
        if let e = endurance {
            endurance = (1 - Physiology.enduranceWeight) * e + Physiology.enduranceWeight * distance
        } else {
            endurance = distance
        }
        if let movingPace {
            recentPaces.append(movingPace)
            if recentPaces.count > 10 { recentPaces.removeFirst() }
        }
    }

    /// Median recent moving pace, s/km; 6:30/km before any run.
    var typicalPace: SecondsPerKm {
        guard !recentPaces.isEmpty else { return 390 }
        let sorted = recentPaces.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}

/// The exploring policy that offered missions in the simulated past: a uniformly random kind and
/// a target drawn log-uniformly around what the runner has been doing, wide enough that offers
/// range from very easy to very hard (the learner needs both), within 1–42.2 km and 10 min–4 h.
/// Its `p_complete` is an uninformed 0.5.
enum BaselinePolicy {
    static let uninformedProbability = 0.5
    /// The kinds the simulated past offered (fixed, so that the simulation does not change when
    /// the catalog grows).
    /// The kinds of feature schema v2 were added with it (record 0623), those of v4 with v4
    /// (record 0642), explorer and personal best with v5 (records 0645, 0646).
    static let offeredKinds: [MissionKind] = [.distance, .duration, .pace, .negativeSplit, .distanceInTime,
                                              .longRun, .recovery, .evenPace, .progression, .hills,
                                              .earlyBird, .nightOwl, .loop, .intervals, .fartlek, .weeklyVolume,
                                              .explorer, .personalBest]

    /// `now`: the offer's instant (the long run's 28-day window ends there, the weekly volume's
    /// week holds it); `utcOffset`: the runner's local time − UTC, seconds; `digests`: the runs'
    /// digests so far (personal-best distances, whether any ground is known).
    static func offer(history: ObservedHistory, now: EpochSeconds, utcOffset: Int = 0, digests: [RunDigest] = [],
                      rng: inout SeededGenerator) -> MissionSpec {
        let endurance = history.endurance ?? 5000
        let pace = history.typicalPace
        func distance(_ low: Double, _ high: Double) -> Meters {
            min(42_200, max(1000, (endurance * exp(rng.uniform(low, high)) / 100).rounded() * 100))
        }
        func targetPace() -> SecondsPerKm { (pace * exp(rng.uniform(-0.2, 0.05))).rounded() }
        switch offeredKinds[rng.int(in: 0...(offeredKinds.count - 1))] {
        case .distance:
            return .distance(minDistance: distance(-0.5, 0.9))
        case .duration:
            let seconds = endurance * pace / 1000 * exp(rng.uniform(-0.5, 0.9))
            return .duration(minDuration: min(4 * 3600, max(600, (seconds / 60).rounded() * 60)))
        case .pace:
            return .pace(maxPace: targetPace(), minDistance: distance(-0.7, 0.3))
        case .negativeSplit:
            return .negativeSplit(minDistance: distance(-0.6, 0.6))
        case .distanceInTime:
            let d = distance(-0.9, 0.2)
            return .distanceInTime(distance: d, maxDuration: (d * targetPace() / 1000 / 10).rounded() * 10)
        case .longRun:
            // Without a run in the window the check cannot decide: a distance mission instead.
            let multiple = 1 + (rng.uniform(0, 0.6) * 20).rounded() / 20
            guard history.longest28d(before: now) > 0 else { return .distance(minDistance: distance(-0.5, 0.9)) }
            return .longRun(multiple: multiple)
        case .recovery:
            let floor = (pace * exp(rng.uniform(-0.05, 0.25))).rounded()
            let seconds = endurance * pace / 1000 * exp(rng.uniform(-0.6, 0.6))
            return .recovery(minPace: floor, minDuration: min(3 * 3600, max(600, (seconds / 60).rounded() * 60)),
                             maxHeartRate: nil)
        case .evenPace:
            let spread = exp(rng.uniform(log(15), log(35))).rounded()
            return .evenPace(minDistance: max(2000, distance(-0.6, 0.5)), maxSpread: spread)
        case .progression:
            let most = min(10, max(3, Int(saturating: endurance / 1000 * 1.5)))
            return .progression(kilometres: rng.int(in: 2...most))
        case .hills:
            let ascent = endurance / 1000 * 10 * exp(rng.uniform(-1, 1))
            return .hills(minAscent: min(800, max(80, (ascent / 10).rounded() * 10)))
        case .earlyBird:
            // Limits from 05:00 to 10:00 and 17:00 to 23:00 in quarter hours, whatever the habit.
            let minute = (rng.uniform(5, 10) * 4).rounded() * 15
            return .earlyBird(beforeMinute: Int(saturating: minute), minDistance: distance(-0.6, 0.6))
        case .nightOwl:
            let minute = (rng.uniform(17, 23) * 4).rounded() * 15
            return .nightOwl(afterMinute: Int(saturating: minute), minDistance: distance(-0.6, 0.6))
        case .loop:
            let gap = (exp(rng.uniform(log(30), log(300))) / 10).rounded() * 10
            return .loop(maxGap: gap, minDistance: distance(-0.6, 0.7))
        case .intervals:
            let rep = [400.0, 800, 1000, 1600][rng.int(in: 0...3)]
            let reps = rng.int(in: 3...12)
            // Around the usual pace carried down to the rep distance (Riegel), faster or a little slower.
            let repPace = (pace * pow(rep / max(1000, endurance), 0.06) * exp(rng.uniform(-0.3, 0.05))).rounded()
            let rest = (rng.uniform(45, 240) / 15).rounded() * 15
            return .intervals(reps: reps, repDistance: rep, maxPace: repPace, maxRecovery: rest)
        case .fartlek:
            let surge = [15.0, 20, 30, 45, 60, 90, 120][rng.int(in: 0...6)]
            return .fartlek(surges: rng.int(in: 3...14), minSurge: surge)
        case .weeklyVolume:
            let soFar = history.weekSoFar(before: now, utcOffset: utcOffset)
            let total = min(500_000, max(1000, ((soFar + distance(-0.5, 0.9)) / 500).rounded() * 500))
            return .weeklyVolume(distance: total)
        case .explorer:
            // New-ground shares from 5 % to 90 %; without a run on the grid, a distance mission.
            let fraction = min(0.9, max(0.05, (exp(rng.uniform(log(0.05), log(0.9))) * 20).rounded() / 20))
            let d = distance(-0.6, 0.6)
            guard digests.contains(where: { !$0.cells.isEmpty }) else { return .distance(minDistance: d) }
            return .explorer(minNewFraction: fraction, minDistance: d)
        case .personalBest:
            // A distance from 1 km up to twice the endurance with an effort to beat; without one,
            // a distance mission.
            let reachable = PriorRun.effortDistances.filter { d in
                d >= 1000 && d <= 2 * endurance && digests.contains { $0.bestEfforts[d] != nil }
            }
            let pick = rng.int(in: 0...max(0, reachable.count - 1))
            guard reachable.indices.contains(pick) else { return .distance(minDistance: distance(-0.5, 0.9)) }
            return .personalBest(distance: reachable[pick])
        default:
            // Unreachable: the draw is from `offeredKinds`, all handled above.
            preconditionFailure("BaselinePolicy: kind outside offeredKinds")
        }
    }
}
