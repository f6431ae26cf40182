import RunusCore

/// One labelled part of a run record with its neighbours of the same label merged (what
/// `runus track` prints): seconds from the first cleaned fix, start < end.
public struct MergedActivityPart: Equatable, Sendable {
    public let activity: ActivityClass
    public let start: Seconds, end: Seconds
    /// Path length of the part's cleaned steps, metres (before the stationary-jitter filter).
    public let path: Meters
}

extension RunMetrics {
    /// `activityParts` with neighbours of the same label merged, timed from the first one's start.
    public var mergedActivityParts: [MergedActivityPart] {
        guard let t0 = activityParts.first?.startTime else { return [] }
        var result: [MergedActivityPart] = []
        for s in activityParts {
            let start = s.startTime - t0, end = s.endTime - t0
            if let last = result.last, last.activity == s.activity {
                result[result.count - 1] = MergedActivityPart(activity: s.activity, start: last.start, end: end, path: last.path + s.path)
            } else {
                result.append(MergedActivityPart(activity: s.activity, start: start, end: end, path: s.path))
            }
        }
        return result
    }
}
