import RunusCore
import Tracking

/// Why a run sent to `runs.ingest` is refused: the fixes cannot be one recording of one run.
/// Each message names the fix and the value (docs/decisions/0230-run-plausibility.md).
public enum RunRefusal: Error, Equatable, CustomStringConvertible {
    case tooFewFixes(count: Int)
    case outOfOrder(index: Int, time: EpochSeconds, previous: EpochSeconds)
    case gap(index: Int, seconds: Seconds, limit: Seconds)
    case tooLong(seconds: Seconds, limit: Seconds)
    case inTheFuture(index: Int, time: EpochSeconds, serverTime: EpochSeconds, limit: Seconds)

    /// The fix the refusal names, when one.
    public var index: Int? {
        switch self {
        case .outOfOrder(let i, _, _), .gap(let i, _, _), .inTheFuture(let i, _, _, _): return i
        case .tooFewFixes, .tooLong: return nil
        }
    }

    public var description: String {
        func s(_ x: Double) -> String { "\(Int(saturating: x.rounded())) s" }
        switch self {
        case .tooFewFixes(let n):
            return "the run has \(n) fix(es); at least 2 are needed"
        case .outOfOrder(let i, let t, let previous):
            return "points[\(i)] is timed \(t), before points[\(i - 1)] at \(previous): fixes must be in time order"
        case .gap(let i, let seconds, let limit):
            return "points[\(i)] comes \(s(seconds)) after points[\(i - 1)]; a gap over \(s(limit)) is not one run (send the parts as separate runs)"
        case .tooLong(let seconds, let limit):
            return "the fixes span \(s(seconds)); a run lasts at most \(s(limit))"
        case .inTheFuture(let i, let t, let server, let limit):
            return "points[\(i)] is timed \(t), \(s(t - server)) ahead of the server clock (\(server)); at most \(s(limit)) of clock skew is accepted"
        }
    }
}

/// Codes of the reasons a stored run earns nothing (`RunRecord.unrewardedReason`).
public enum UnrewardedReason {
    /// Started before the reward window (`PlausibilityRules.rewardWindow`).
    public static let tooOld = "too_old"
    /// Faster than `WorldRecordPace` allows over its distance.
    public static let tooFast = "too_fast"
    /// Under `minimumDistance` or `minimumMoving` once cleaned (vehicle parts left out).
    public static let tooShort = "too_short"
    /// With the runner's other rewarded runs, more distance in a day or a week than anyone has
    /// run (`PlausibilityRules.volumeVerdict`, record 0233).
    public static let overVolume = "over_volume"

    /// Reasons whose runs are not evidence of the runner's ability: left out of runner states,
    /// badges, goals and mission contexts, though listed in the history.
    static let implausible: Set<String> = [tooFast, tooShort, overVolume]
}

extension RunRecord {
    /// False for a run that says nothing true about the runner (too fast, too short): it stays in
    /// the history but no state, badge, goal or mission check reads it.
    public var isEvidence: Bool { unrewardedReason.map { !UnrewardedReason.implausible.contains($0) } ?? true }
}

/// The physical limits a run is checked against before it is rewarded. Structural problems
/// refuse it (`check(points:now:)`); a run that is real but must not earn (too old, too fast,
/// too short) is stored unrewarded with a reason (`rewardVerdict`).
public struct PlausibilityRules: Sendable, Equatable {
    /// Longest accepted run, first to last fix, seconds (48 h).
    public var maximumElapsed: Seconds = 48 * 3600
    /// Longest accepted gap between consecutive fixes, seconds (6 h: a long lunch stop is still
    /// one outing; a phone left recording overnight is not).
    public var maximumGap: Seconds = 6 * 3600
    /// How far a fix may be timed ahead of the server clock, seconds (client clock skew).
    public var maximumClockLead: Seconds = 300
    /// Runs that started longer ago than this complete no mission and earn no XP, seconds
    /// (7 days; `runs.ingest` only, not `runus import`).
    public var rewardWindow: Seconds = 7 * 86_400
    /// Shortest run that earns anything, metres after cleaning.
    public var minimumDistance: Meters = 100
    /// Least moving time that earns anything, seconds.
    public var minimumMoving: Seconds = 60

    public init() {}

    /// Refuses fixes that cannot be one recording: too few, out of time order, with a gap over
    /// `maximumGap`, spanning more than `maximumElapsed`, or timed ahead of `now` by more than
    /// `maximumClockLead`. Equal consecutive times are accepted (cleaning drops repeats).
    public func check(points: [TrackPoint], now: EpochSeconds) throws(RunRefusal) {
        try check(times: points.map(\.time), now: now)
    }

    /// `check(points:now:)` on the times of a recording's records in the order sent (fixes and
    /// device distance readings alike, record 0116); refusals index `times`.
    public func check(times: [EpochSeconds], now: EpochSeconds) throws(RunRefusal) {
        guard times.count >= 2 else { throw .tooFewFixes(count: times.count) }
        let latest = now + maximumClockLead
        for i in times.indices {
            let t = times[i]
            if t > latest { throw .inTheFuture(index: i, time: t, serverTime: now, limit: maximumClockLead) }
            guard i > 0 else { continue }
            let previous = times[i - 1]
            if t < previous { throw .outOfOrder(index: i, time: t, previous: previous) }
            if t - previous > maximumGap { throw .gap(index: i, seconds: t - previous, limit: maximumGap) }
        }
        let span = times[times.count - 1] - times[0]
        if span > maximumElapsed { throw .tooLong(seconds: span, limit: maximumElapsed) }
    }

    /// Nil when the run earns its rewards; else the reason code (`UnrewardedReason`) and one
    /// sentence for the runner.
    public func rewardVerdict(start: EpochSeconds, distance: Meters, moving: Seconds, now: EpochSeconds)
        -> (code: String, sentence: String)? {
        if distance < minimumDistance || moving < minimumMoving {
            return (UnrewardedReason.tooShort,
                    "The run covers \(DistanceFormat.metres(distance)) in \(DistanceFormat.duration(moving)) of moving time "
                        + "on foot; a run needs \(DistanceFormat.metres(minimumDistance)) and \(DistanceFormat.duration(minimumMoving)) to count.")
        }
        if WorldRecordPace.isSuperhuman(distance: distance, time: moving) {
            return (UnrewardedReason.tooFast,
                    "\(DistanceFormat.kilometres(distance)) in \(DistanceFormat.duration(moving)) is faster than anyone runs "
                        + "(world record \(DistanceFormat.duration(WorldRecordPace.recordTime(over: distance)))): it was recorded, but it earns nothing.")
        }
        if start < now - rewardWindow {
            let days = Int(saturating: (rewardWindow / 86_400).rounded())
            return (UnrewardedReason.tooOld,
                    "The run started more than \(days) days ago: it is in your history, but it completes no mission and earns no XP.")
        }
        return nil
    }
}
