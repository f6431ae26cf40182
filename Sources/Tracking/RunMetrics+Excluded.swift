import RunusCore

/// A stretch of a recording that the run record leaves out of its distance, moving time and
/// climb: a vehicle part (records 0106, 0144, 0153), neighbouring vehicle parts merged.
public struct ExcludedPart: Sendable, Equatable {
    /// What it was travelled by (`vehicle`).
    public let activity: ActivityClass
    /// Unix seconds of the cleaned fix it starts from and of its last fix (start < end).
    public let startTime: EpochSeconds
    public let endTime: EpochSeconds
    /// Path length of its cleaned steps in metres, ≥ 0 (before the jitter filter, as
    /// `ActivityPart.path`): the distance the record did not count.
    public let path: Meters
}

extension RunMetrics {
    /// The parts of the recording this record leaves out, in time order: its `vehicle` activity
    /// parts (leading and trailing ones cut off, middle ones counted as neither distance nor
    /// moving time), neighbours merged. Empty when the configuration does not classify
    /// (`activityParts` is then empty; the speed rule's stretches are not listed).
    public var excludedParts: [ExcludedPart] {
        var parts: [ExcludedPart] = []
        for p in activityParts where p.activity == .vehicle {
            if let last = parts.last, last.endTime == p.startTime {
                parts[parts.count - 1] = ExcludedPart(activity: .vehicle, startTime: last.startTime, endTime: p.endTime,
                                                      path: last.path + p.path)
            } else {
                parts.append(ExcludedPart(activity: p.activity, startTime: p.startTime, endTime: p.endTime, path: p.path))
            }
        }
        return parts
    }
}
