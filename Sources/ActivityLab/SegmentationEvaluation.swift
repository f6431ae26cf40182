import RunusCore
import Tracking

/// Held-out evaluation of the activity classifier by person (record 0145): every person's
/// tracks fall in exactly one fold; a fold is scored by a classifier trained on the other
/// folds, so no person is ever both trained and tested on. Windows are the unit scored.
public enum SegmentationEvaluation {
    public struct Options: Sendable {
        /// Number of person folds, ≥ 2 (default 4).
        public var folds = 4
        /// Seed of the fold assignment and of the training subsample.
        public var seed: UInt64 = 145
        /// Cap on training windows per class and fold (default 4000), so that a person with
        /// thousands of tracks does not dominate and training stays fast.
        public var maxWindowsPerClass = 4000
        /// Cap on training windows per labelled track (default: none), so that long tracks do
        /// not crowd out short ones, which count as much in the per-segment score.
        public var maxWindowsPerTrack = Int.max
        public var forest = DecisionForest.Parameters()
        /// The metrics configuration the tracks are labelled with (vehicle rule and classifier
        /// thresholds; default `.default`).
        public var configuration = MetricsConfiguration.default
        public init() {}
    }

    /// Fold of each person: persons with foot tracks and the others are shuffled separately and
    /// dealt round-robin, so every fold holds foot and vehicle examples when there are enough.
    public static func folds(of tracks: [LabelledTrack], count: Int, seed: UInt64) -> [String: Int] {
        precondition(count >= 2, "SegmentationEvaluation.folds: need at least 2 folds, got \(count)")
        let foot = Set(tracks.filter { $0.activity.isOnFoot }.map(\.person))
        let others = Set(tracks.map(\.person)).subtracting(foot)
        var rng = SeededGenerator(seed: seed)
        var assignment: [String: Int] = [:]
        var next = 0
        for group in [foot.sorted(), others.sorted()] {
            var g = group
            g.shuffle(using: &rng)
            for person in g { assignment[person] = next % count; next += 1 }
        }
        return assignment
    }

    /// Labelled training inputs of cleaned tracks (stationary windows left out), at most
    /// `maxPerClass` per class, drawn with `seed`.
    public static func trainingWindows(_ tracks: [LabelledTrack], maxPerClass: Int, maxPerTrack: Int = .max,
                                       seed: UInt64) -> [(values: [Double], activity: ActivityClass)] {
        var byClass: [ActivityClass: [[Double]]] = [:]
        var rng = SeededGenerator(seed: seed)
        for labelled in tracks {
            var examples = ActivityClassifier.trainingExamples(labelled.track.cleaned().points, activity: labelled.activity)
            if examples.count > maxPerTrack { examples.shuffle(using: &rng); examples.removeLast(examples.count - maxPerTrack) }
            byClass[labelled.activity, default: []] += examples.map(\.values)
        }
        var result: [(values: [Double], activity: ActivityClass)] = []
        for activity in ActivityClass.moving {
            var windows = byClass[activity] ?? []
            if windows.count > maxPerClass { windows.shuffle(using: &rng); windows.removeLast(windows.count - maxPerClass) }
            result += windows.map { ($0, activity) }
        }
        return result
    }

    /// Confusion matrices at two levels: per window, and per labelled segment (one labelled
    /// track: GeoLife segment or runner activity), whose prediction is the moving class whose
    /// steps cover most of its distance, each step counted with its own label, dropouts between
    /// windows included (stationary only when no step has a moving label): what decides how much
    /// of it a run record would count.
    public struct Scores: Sendable {
        public var windows = ConfusionMatrix()
        public var segments = ConfusionMatrix()
        public init() {}
        public static func + (a: Scores, b: Scores) -> Scores {
            var c = a
            c.windows = a.windows + b.windows
            c.segments = a.segments + b.segments
            return c
        }
    }

    /// Scores `classifier` on `tracks` as `RunMetrics` would use it: each track is cleaned,
    /// labelled by `Track.activitySegments`, and each window counts once with the label most
    /// of its segments got.
    public static func score(_ tracks: [LabelledTrack], classifier: ActivityClassifier,
                             configuration: MetricsConfiguration = .default) -> Scores {
        outcomes(tracks, classifier: classifier, configuration: configuration).reduce(Scores()) { $0 + $1.scores }
    }

    /// How one labelled track was labelled: its segment-level prediction and window counts.
    public struct Outcome: Sendable {
        public let person: String
        /// The labelled track's `source`.
        public let source: String
        public let truth: ActivityClass
        /// The segment-level prediction (see `Scores`).
        public let predicted: ActivityClass
        /// This track's windows and its one segment.
        public let scores: Scores
        /// Share of the track's path in [0, 1] that `RunMetrics` would leave out as vehicle.
        public let vehicleShare: Double
    }

    /// Per-track outcomes of `classifier` on `tracks`, in order (tracks under 2 cleaned points
    /// are skipped).
    public static func outcomes(_ tracks: [LabelledTrack], classifier: ActivityClassifier,
                                configuration: MetricsConfiguration = .default) -> [Outcome] {
        var result: [Outcome] = []
        for labelled in tracks {
            var scores = Scores()
            let cleaned = labelled.track.cleaned(configuration: configuration)
            let n = cleaned.points.count
            guard n >= 2 else { continue }
            var label = [ActivityClass](repeating: .stationary, count: n)
            for s in cleaned.activitySegments(configuration: configuration, classifier: classifier) {
                for i in s.range { label[i] = s.activity }
            }
            // Each step's distance counts for its own label, dropouts outside every window
            // included: what a run record keeps or leaves out (records 0145, 0151).
            var trackVotes = [Double](repeating: 0, count: ActivityClass.allCases.count)
            for i in 1..<n {
                let a = cleaned.points[i - 1], b = cleaned.points[i]
                trackVotes[label[i].rawValue] += Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                                                       latitude2: b.latitude, longitude2: b.longitude)
            }
            for w in classifier.windowing.windows(cleaned.points, from: 0, through: n - 1) {
                var votes = [Int](repeating: 0, count: ActivityClass.allCases.count)
                for i in (w.lowerBound + 1)...w.upperBound { votes[label[i].rawValue] += 1 }
                let predicted = ActivityClass(rawValue: votes.indices.max { votes[$0] < votes[$1] }!)!
                scores.windows.add(truth: labelled.activity, predicted: predicted)
            }
            let totalPath = trackVotes.reduce(0, +), vehiclePath = trackVotes[ActivityClass.vehicle.rawValue]
            let moving = trackVotes.indices.dropFirst()
            let best = moving.max { trackVotes[$0] < trackVotes[$1] || (trackVotes[$0] == trackVotes[$1] && $0 > $1) }!
            let predicted = trackVotes[best] > 0 ? ActivityClass(rawValue: best)! : .stationary
            scores.segments.add(truth: labelled.activity, predicted: predicted)
            result.append(Outcome(person: labelled.person, source: labelled.source, truth: labelled.activity, predicted: predicted, scores: scores,
                                  vehicleShare: totalPath > 0 ? vehiclePath / totalPath : 0))
        }
        return result
    }

    /// One fold: trains on the other folds' persons and scores this fold's, per track.
    /// Held-out outcomes of fold `k`, scored by a forest trained on the other folds; none when
    /// those give no moving window to train on (the caller says so).
    public static func fold(_ k: Int, of tracks: [LabelledTrack], assignment: [String: Int],
                            options: Options) -> [Outcome] {
        let train = tracks.filter { assignment[$0.person] != k }
        let test = tracks.filter { assignment[$0.person] == k }
        let windows = trainingWindows(train, maxPerClass: options.maxWindowsPerClass, maxPerTrack: options.maxWindowsPerTrack,
                                      seed: options.seed &+ UInt64(k))
        // The other folds' tracks (read from files) may hold no moving window: nothing to train on.
        guard let classifier = ActivityClassifier(training: windows, parameters: options.forest) else { return [] }
        return outcomes(test, classifier: classifier, configuration: options.configuration)
    }

    /// Foot-vs-vehicle segment errors by person, e.g. `geolife_062 (295): vehicle→cycle 17,
    /// vehicle→walk 13`: labelled segments of walk, run or vehicle whose prediction is on the
    /// other side (stationary predictions are left out, as in the F1), with the person's count of
    /// such segments in brackets.
    public static func errorsByPerson(_ outcomes: [Outcome]) -> [String] {
        var errors: [String: [String: Int]] = [:], totals: [String: Int] = [:]
        for o in outcomes where o.truth != .cycle && o.truth != .stationary {
            totals[o.person, default: 0] += 1
            guard o.predicted != .stationary, (o.truth == .vehicle) != (o.predicted == .vehicle) else { continue }
            errors[o.person, default: [:]]["\(o.truth)→\(o.predicted)", default: 0] += 1
        }
        return errors.keys.sorted().map { person in
            "\(person) (\(totals[person]!)): " + errors[person]!.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
    }
}
