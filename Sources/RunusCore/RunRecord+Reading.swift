/// What a store does with a run it reads back (`RunStore`): a file written by older code, by
/// hand or by a bug may hold numbers no run can have, and everything computed from a runner's
/// history (states, features, "why" sentences, badges) must be able to trust them.
/// docs/decisions/0230-run-plausibility.md gives the bounds.
extension RunRecord {
    /// Latest start instant a stored run may have, Unix seconds (year 5138): beyond it the value
    /// is not a time.
    public static let maximumStoredStart: EpochSeconds = 1e11
    /// Longest stored run, seconds (7 days). Longer than the 48 h `runs.ingest` accepts, so that
    /// an imported multi-day event is kept; a "run" of months is not.
    public static let maximumStoredElapsed: Seconds = 7 * 86_400
    /// Longest stored distance, metres (1,000 km).
    public static let maximumStoredDistance: Meters = 1_000_000
    /// Largest stored climb, metres.
    public static let maximumStoredClimb: Meters = 100_000
    /// Fastest whole-run average speed a stored run may have, m/s: above the 100 m world record's
    /// average (10.4 m/s), so no run on foot is lost.
    public static let maximumStoredAverageSpeed: Double = 12

    public enum ReadCheck: Equatable, Sendable {
        /// Read as stored.
        case valid(RunRecord)
        /// Clamped into range; `reason` says what changed (logged).
        case repaired(RunRecord, reason: String)
        /// Left out; `reason` names the bad value (logged).
        case skipped(reason: String)
    }

    /// The run as the engine may see it, repaired, or the reason to leave it out.
    public func checkedForReading() -> ReadCheck {
        func bad(_ name: String, _ value: Double, _ expected: String) -> ReadCheck {
            .skipped(reason: "\(name) \(value) is \(expected)")
        }
        guard startTime.isFinite, (0...Self.maximumStoredStart).contains(startTime) else {
            return bad("start_time", startTime, "outside [0, \(Self.maximumStoredStart)]")
        }
        guard distance.isFinite, (0...Self.maximumStoredDistance).contains(distance) else {
            return bad("distance_m", distance, "outside [0, \(Self.maximumStoredDistance)]")
        }
        guard elapsed.isFinite, (0...Self.maximumStoredElapsed).contains(elapsed) else {
            return bad("elapsed_s", elapsed, "outside [0, \(Self.maximumStoredElapsed)]")
        }
        guard moving.isFinite, moving >= 0 else { return bad("moving_s", moving, "not a duration ≥ 0") }
        guard distance <= Self.maximumStoredAverageSpeed * elapsed else {
            return .skipped(reason: "distance_m \(distance) in elapsed_s \(elapsed) is faster than \(Self.maximumStoredAverageSpeed) m/s")
        }
        var run = self
        var repairs: [String] = []
        if moving > elapsed {
            repairs.append("moving_s \(moving) > elapsed_s \(elapsed), set to elapsed_s")
            run.moving = elapsed
        }
        if !elevationGain.isFinite || elevationGain < 0 || elevationGain > Self.maximumStoredClimb {
            repairs.append("elevation_gain_m \(elevationGain) outside [0, \(Self.maximumStoredClimb)], set to 0")
            run.elevationGain = 0
        }
        if let kcal = calories, !kcal.isFinite || kcal < 0 {
            repairs.append("calories_kcal \(kcal) is not ≥ 0, set to null")
            run.calories = nil
        }
        return repairs.isEmpty ? .valid(run) : .repaired(run, reason: repairs.joined(separator: "; "))
    }
}
