import RunusCore

/// One labelled part of a run's cleaned track, as `RunMetrics` decided it: an `ActivitySegment`
/// with its times and length instead of point indices, so that a reader of the record needs
/// neither the cleaned track nor a second classification.
public struct ActivityPart: Sendable, Equatable {
    public let activity: ActivityClass
    /// Class probability of `activity` from the forest in [0, 1] (1 for rule decisions).
    public let confidence: Double
    /// Unix seconds of the cleaned fix before the part's first segment and of its last fix
    /// (start < end).
    public let startTime: EpochSeconds
    public let endTime: EpochSeconds
    /// Length of the part's cleaned steps in metres, ≥ 0: their `Geodesy.localDistance` summed
    /// in order, before the jitter filter (and counted whatever the part's class).
    public let path: Meters

    public init(activity: ActivityClass, confidence: Double, startTime: EpochSeconds, endTime: EpochSeconds, path: Meters) {
        self.activity = activity
        self.confidence = confidence
        self.startTime = startTime
        self.endTime = endTime
        self.path = path
    }

    /// The parts of `segments` (ranges into `points`, as `Track.activitySegments` gives them).
    static func parts(_ segments: [ActivitySegment], of points: [TrackPoint]) -> [ActivityPart] {
        segments.map { s in
            var path: Meters = 0
            for i in s.range {
                path += Geodesy.localDistance(latitude1: points[i - 1].latitude, longitude1: points[i - 1].longitude,
                                              latitude2: points[i].latitude, longitude2: points[i].longitude)
            }
            return ActivityPart(activity: s.activity, confidence: s.confidence, startTime: points[s.range.lowerBound - 1].time,
                                endTime: points[s.range.upperBound].time, path: path)
        }
    }
}
