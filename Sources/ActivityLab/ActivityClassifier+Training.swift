import RunusCore
import Tracking

/// Training the activity classifier: labelled forest inputs from tracks of known activity, and a
/// classifier trained on them (records 0142, 0143).
extension ActivityClassifier {
    /// Labelled training inputs from one track of known `activity` (times increasing): the
    /// vectors of the windows the speed rule leaves to the classifier, each part's context taken
    /// within that part as `segments` does; stationary windows left out (the rule decides them).
    public static func trainingExamples(_ points: [TrackPoint], activity: ActivityClass,
                                        windowing: Windowing = Windowing()) -> [(values: [Double], activity: ActivityClass)] {
        guard points.count >= 2 else { return [] }
        let track = Track(points: points)
        let parts = track.nonVehicleParts(track.vehicleSpeedRule())
        return parts.flatMap { part in
            let features = windowing.windows(points, from: part.lowerBound, through: part.upperBound).map { SegmentFeatures(points: points[$0]) }
            return zip(features, vectors(features)).compactMap { f, v in
                f.netSpeed >= windowing.stationarySpeed ? (v, activity) : nil
            }
        }
    }

    /// Trains a forest on labelled inputs (stationary ones are skipped: the rule decides them);
    /// nil when no input is a moving window (labelled tracks read from files may give none).
    public init?(training examples: [(values: [Double], activity: ActivityClass)],
                 parameters: DecisionForest.Parameters = .init()) {
        let moving = examples.filter { $0.activity != .stationary }
        guard !moving.isEmpty else { return nil }
        let forest = DecisionForest(samples: moving.map(\.values),
                                    labels: moving.map { ActivityClass.moving.firstIndex(of: $0.activity)! },
                                    classCount: ActivityClass.moving.count, parameters: parameters)
        self.init(forest: forest)
    }
}
