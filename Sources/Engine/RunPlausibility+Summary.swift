import RunusCore
import Tracking

/// Why a summary sent to `runs.ingest` is refused: one of its numbers cannot belong to a run
/// (record 0232). `field` is the summary's key (`start_time`, `distance_m`, `duration_s`,
/// `moving_s`, `kcal`, `avg_hr`); the message names the value and the bound.
public struct SummaryRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let field: String
    public let message: String

    public var description: String { "summary.\(field): \(message)" }
}

extension PlausibilityRules {
    /// Most energy a runner spends per hour, kcal (an elite marathon pace costs about 1,300).
    public static let maximumKcalPerHour: Double = 1500
    /// Heart rates a summary may state, bpm (the range `points` accept).
    public static let summaryHeartRates: ClosedRange<Double> = 20...260

    /// The bounds a track's fixes get, applied to a summary (record 0232): the duration in
    /// (0, `maximumElapsed`], the start at or after the Unix epoch and the end at most
    /// `maximumClockLead` ahead of `now`, the distance in [0, `RunRecord.maximumStoredDistance`]
    /// and no faster on average than `RunRecord.maximumStoredAverageSpeed`, moving time in
    /// [0, duration], energy in [0, `maximumKcalPerHour` × hours], average heart rate in
    /// `summaryHeartRates`. Every number must be finite. A pace faster than the world record is
    /// not refused here: like a track's, it is stored unrewarded (`rewardVerdict`).
    public func check(summary s: RunSummary, now: EpochSeconds) throws(SummaryRefusal) {
        func refuse(_ field: String, _ message: String) -> SummaryRefusal { SummaryRefusal(field: field, message: message) }
        func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "not finite" }
        guard s.duration.isFinite, s.duration > 0, s.duration <= maximumElapsed else {
            throw refuse("duration_s", "\(number(s.duration)) s is not in (0, \(maximumElapsed)]: a run lasts at most 48 h")
        }
        guard s.startTime.isFinite, (0...RunRecord.maximumStoredStart).contains(s.startTime) else {
            throw refuse("start_time", "\(number(s.startTime)) is not a Unix time in [0, \(RunRecord.maximumStoredStart)]")
        }
        let end = s.startTime + s.duration
        guard end <= now + maximumClockLead else {
            throw refuse("start_time", "the run would end at \(end), \(Int(saturating: (end - now).rounded())) s ahead of the server clock (\(now)); at most \(Int(saturating: maximumClockLead)) s of clock skew is accepted")
        }
        guard s.distance.isFinite, (0...RunRecord.maximumStoredDistance).contains(s.distance) else {
            throw refuse("distance_m", "\(number(s.distance)) m is not in [0, \(RunRecord.maximumStoredDistance)]")
        }
        guard s.distance <= RunRecord.maximumStoredAverageSpeed * s.duration else {
            throw refuse("distance_m", "\(s.distance) m in \(s.duration) s is faster than \(RunRecord.maximumStoredAverageSpeed) m/s on average: nothing on foot moves so")
        }
        if let moving = s.moving {
            guard moving.isFinite, moving >= 0, moving <= s.duration else {
                throw refuse("moving_s", "\(number(moving)) s is not in [0, duration_s = \(s.duration)]")
            }
        }
        if let kcal = s.calories {
            let limit = Self.maximumKcalPerHour * s.duration / 3600
            guard kcal.isFinite, kcal >= 0, kcal <= limit else {
                throw refuse("kcal", "\(number(kcal)) kcal is not in [0, \(Int(saturating: limit.rounded()))] for \(s.duration) s (at most \(Int(saturating: Self.maximumKcalPerHour)) kcal an hour)")
            }
        }
        if let hr = s.averageHeartRate {
            guard hr.isFinite, Self.summaryHeartRates.contains(hr) else {
                throw refuse("avg_hr", "\(number(hr)) bpm is not in [\(Self.summaryHeartRates.lowerBound), \(Self.summaryHeartRates.upperBound)]")
            }
        }
    }
}
