import RunusCore
import Tracking

extension Activity {
    /// The run record of this activity: its fixes, with the device's distance readings where
    /// they are sound (record 0116); when neither gives a distance (no positions and no usable
    /// stream: a treadmill file with lap totals only) the file's own totals as a summary
    /// (`totalsSummary`, record 0232), else the empty record.
    public func runMetrics(weightKg: Double? = nil, configuration: MetricsConfiguration = .default) -> RunMetrics {
        let metrics = RunMetrics(track: track, weightKg: weightKg, configuration: configuration)
        guard metrics.profile.times.count < 2, let summary = totalsSummary else { return metrics }
        return RunMetrics(summary: summary, weightKg: weightKg, configuration: configuration,
                          deviceDistanceNote: metrics.deviceDistanceNote)
    }

    /// The device's totals as a summary: distance, elapsed time (else timer time) and start
    /// (else the first record's time), with timer time as moving time, calories and average
    /// heart rate; nil unless the distance is finite and ≥ 0 and the time finite and > 0.
    /// The record sums laps when the file has no session (TCX laps, a FIT file without one).
    public var totalsSummary: RunSummary? {
        var t = deviceTotals
        if t.distance == nil, !laps.isEmpty {
            t.distance = laps.compactMap(\.distance).reduce(0, +)
            t.timerTime = laps.compactMap(\.timerTime).reduce(0, +)
            t.startTime = laps.first?.startTime
        }
        guard let distance = t.distance, distance.isFinite, distance >= 0,
              let duration = t.elapsedTime ?? t.timerTime, duration.isFinite, duration > 0,
              let start = t.startTime ?? track.deviceDistances.first?.time ?? track.points.first?.time, start.isFinite else { return nil }
        let moving = t.timerTime.flatMap { $0.isFinite && $0 >= 0 ? min($0, duration) : nil }
        return RunSummary(startTime: start, distance: distance, duration: duration, moving: moving,
                          calories: t.calories, averageHeartRate: t.averageHeartRate)
    }
}
