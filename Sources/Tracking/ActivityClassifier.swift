import RunusCore

/// Labels the parts of a track stationary / walk / run / cycle / vehicle (records 0140–0143).
///
/// The track is cut into windows of about `windowDuration` seconds (at least `minPoints` fixes,
/// never across a gap longer than `maxGap`); a window whose net displacement speed is under
/// `stationarySpeed` is stationary (a rule), any other is labelled by a random forest over its
/// `SegmentFeatures`. Segments across a long gap take the label of the window before them.
public struct ActivityClassifier: Sendable {
    /// How tracks are cut into windows and when a window is stationary.
    public var windowing = Windowing()

    /// The trained forest over `SegmentFeatures.names`, labels indexing `ActivityClass.moving`.
    public let forest: DecisionForest

    public init(forest: DecisionForest) {
        precondition(forest.classCount == ActivityClass.moving.count && forest.featureCount == Self.featureNames.count,
                     "ActivityClassifier: forest must have \(ActivityClass.moving.count) classes and \(Self.featureNames.count) features")
        self.forest = forest
    }

    /// Names of the forest's inputs: the window's own `SegmentFeatures`, then its context.
    public static let featureNames = SegmentFeatures.names + [
        "context_speed_p95_max_mps", "context_speed_p50_median_mps", "context_stop_fraction_mean",
        "context_accel_p90_median_mps2", "context_sustained_30s_median_mps",
        "wide_context_sustained_60s_median_mps", "wide_context_chord_speed_p50_median_mps",
    ]
    /// Windows on each side whose features form a window's context (3: about ±6 minutes; a
    /// bus stop or a traffic jam looks like walking alone, not next to a fast stretch).
    public static let contextWindows = 3
    /// Windows on each side of the wide context (10: about ±20 minutes, record 0146).
    public static let wideContextWindows = 10

    /// Forest inputs of consecutive windows of one track: each window's features followed by
    /// summaries over the windows within `contextWindows` (and `wideContextWindows`) of it,
    /// itself included.
    public static func vectors(_ features: [SegmentFeatures]) -> [[Double]] {
        func index(_ name: String) -> Int { SegmentFeatures.names.firstIndex(of: name)! }
        let p95 = index("speed_p95_mps"), p50 = index("speed_p50_mps"), stop = index("stop_fraction")
        let accel = index("accel_p90_mps2"), s30 = index("sustained_speed_30s_p90_mps")
        let s60 = index("sustained_speed_60s_p90_mps"), chord = index("chord_speed_30s_p50_mps")
        func median(_ xs: [Double]) -> Double { SegmentFeatures.percentile(xs.sorted(), 0.5) }
        let last = features.count - 1
        return features.indices.map { i in
            let near = features[max(0, i - contextWindows)...min(last, i + contextWindows)]
            let wide = features[max(0, i - wideContextWindows)...min(last, i + wideContextWindows)]
            return features[i].values + [
                near.map { $0.values[p95] }.max()!, median(near.map { $0.values[p50] }),
                near.map { $0.values[stop] }.reduce(0, +) / Double(near.count), median(near.map { $0.values[accel] }),
                median(near.map { $0.values[s30] }),
                median(wide.map { $0.values[s60] }), median(wide.map { $0.values[chord] }),
            ]
        }
    }

    /// Labelled training inputs from one track of known `activity` (times increasing), windowed
    /// as `labels` windows it: the windows the speed rule leaves to the classifier, with their
    /// context over those windows. Stationary windows are left out (the rule decides them).
    public static func trainingExamples(_ points: [TrackPoint], activity: ActivityClass,
                                        windowing: Windowing = Windowing()) -> [(values: [Double], activity: ActivityClass)] {
        guard points.count >= 2 else { return [] }
        let rule = Track(points: points).vehicleSpeedRule()
        let windows = windowing.windows(points, from: 0, through: points.count - 1, ruleVehicle: rule).filter { !$0.rule }
        let features = windows.map { SegmentFeatures(points: points[$0.range]) }
        return zip(features, vectors(features)).compactMap { f, v in
            f.netSpeed >= windowing.stationarySpeed ? (v, activity) : nil
        }
    }

    /// Trains a forest on labelled inputs (stationary ones are skipped: the rule decides them).
    public init(training examples: [(values: [Double], activity: ActivityClass)],
                parameters: DecisionForest.Parameters = .init()) {
        let moving = examples.filter { $0.activity != .stationary }
        precondition(!moving.isEmpty, "ActivityClassifier: no moving training windows")
        let forest = DecisionForest(samples: moving.map(\.values),
                                    labels: moving.map { ActivityClass.moving.firstIndex(of: $0.activity)! },
                                    classCount: ActivityClass.moving.count, parameters: parameters)
        self.init(forest: forest)
    }

    /// Label of one window from its features and forest inputs (`vectors`).
    public func classify(_ features: SegmentFeatures, vector: [Double]) -> (activity: ActivityClass, probability: Double) {
        if features.netSpeed < windowing.stationarySpeed { return (.stationary, 1) }
        let (label, p) = forest.predict(vector)
        return (ActivityClass.moving[label], p)
    }

    /// Labelled parts of `points[lo...hi]` (times strictly increasing, e.g. a cleaned track):
    /// one `ActivitySegment` per window, neighbours with the same label merged, together
    /// covering points lo+1…hi.
    public func segments(_ points: [TrackPoint], from lo: Int, through hi: Int) -> [ActivitySegment] {
        guard hi > lo else { return [] }
        let labels = self.labels(points, from: lo, through: hi, ruleVehicle: nil)
        return Self.merge(labels, from: lo, part: lo...hi)
    }

    /// Label and confidence of every segment of `points[lo...hi]` (element k is the segment
    /// ending at point lo+k; element 0 and segments across a long gap are nil). When
    /// `ruleVehicle` (indexed like `points`) is given, windows never straddle a change of it and
    /// flagged windows are `vehicle` with confidence 1; the context of the other windows spans
    /// all unflagged windows of the track, across the flagged stretches but never including
    /// them (record 0146: the slow parts of a bus ride see each other; a run after a drive does
    /// not see the drive, which no single-activity training track would teach it to ignore).
    public func labels(_ points: [TrackPoint], from lo: Int, through hi: Int,
                       ruleVehicle: [Bool]?) -> [(activity: ActivityClass, confidence: Double)?] {
        var labels = [(activity: ActivityClass, confidence: Double)?](repeating: nil, count: hi - lo + 1)
        guard hi > lo else { return labels }
        let all = ruleVehicle.map { windowing.windows(points, from: lo, through: hi, ruleVehicle: $0) }
            ?? windowing.windows(points, from: lo, through: hi).map { (range: $0, rule: false) }
        for w in all where w.rule {
            for i in (w.range.lowerBound + 1)...w.range.upperBound { labels[i - lo] = (.vehicle, 1) }
        }
        let windows = all.filter { !$0.rule }.map(\.range)
        let features = windows.map { SegmentFeatures(points: points[$0]) }
        for (k, vector) in Self.vectors(features).enumerated() {
            let (activity, p) = classify(features[k], vector: vector)
            let label = (activity: activity, confidence: p)
            for i in (windows[k].lowerBound + 1)...windows[k].upperBound { labels[i - lo] = label }
        }
        return labels
    }

    /// Segments of `part` (a point range inside lo…, as `labels` indexes them), neighbours with
    /// equal labels merged: unlabelled (gap) segments take the label before them in the part,
    /// else the first after, else stationary.
    public static func merge(_ labels: [(activity: ActivityClass, confidence: Double)?], from lo: Int,
                             part: ClosedRange<Int>) -> [ActivitySegment] {
        guard part.upperBound > part.lowerBound else { return [] }
        let range = (part.lowerBound + 1)...part.upperBound
        let first = range.lazy.compactMap { labels[$0 - lo] }.first ?? (.stationary, 1)
        var previous = first
        var result: [ActivitySegment] = []
        var start = range.lowerBound
        for i in range {
            let current = labels[i - lo] ?? previous
            previous = current
            let next = i < range.upperBound ? labels[i + 1 - lo] ?? current : nil
            if next?.activity != current.activity {
                result.append(ActivitySegment(range: start...i, activity: current.activity, confidence: current.confidence))
                start = i + 1
            }
        }
        return result
    }

    /// Cutting a track into windows (record 0141).
    public struct Windowing: Sendable {
        /// Window length in seconds, > 0 (default 120, record 0141).
        public var windowDuration: Seconds = 120
        /// Fewest fixes in a window, ≥ 2 (default 5: sparse loggers get longer windows).
        public var minPoints = 5
        /// Longest step kept inside a window in seconds (default 300): longer is a dropout.
        public var maxGap: Seconds = 300
        /// Net speed in m/s under which a window is stationary (default 0.3, record 0141).
        public var stationarySpeed = 0.3

        public init() {}

        /// Windows of `points[lo...hi]` that never straddle a change of `ruleVehicle` (element i:
        /// the segment ending at point i is flagged), each with its flag, in track order.
        public func windows(_ points: [TrackPoint], from lo: Int, through hi: Int,
                            ruleVehicle: [Bool]) -> [(range: ClosedRange<Int>, rule: Bool)] {
            var result: [(range: ClosedRange<Int>, rule: Bool)] = []
            var s = lo + 1
            while s <= hi {
                var e = s
                while e < hi && ruleVehicle[e + 1] == ruleVehicle[s] { e += 1 }
                result += windows(points, from: s - 1, through: e).map { ($0, ruleVehicle[s]) }
                s = e + 1
            }
            return result
        }

        /// Windows of `points[lo...hi]` as point-index ranges [a, e]: the window owns the segments
        /// ending at a+1…e; consecutive windows share their boundary fix. Times must increase.
        public func windows(_ points: [TrackPoint], from lo: Int, through hi: Int) -> [ClosedRange<Int>] {
            var result: [ClosedRange<Int>] = []
            var s = lo
            while s < hi {
                var runEnd = s
                while runEnd < hi && points[runEnd + 1].time - points[runEnd].time <= maxGap { runEnd += 1 }
                if runEnd == s { s += 1; continue }
                var a = s
                while a < runEnd {
                    var e = a + 1
                    while e < runEnd && (points[e].time - points[a].time < windowDuration || e - a < minPoints - 1) { e += 1 }
                    if runEnd - e < minPoints - 1 || points[runEnd].time - points[e].time < windowDuration / 2 { e = runEnd }
                    result.append(a...e)
                    a = e
                }
                s = runEnd + 1
            }
            return result
        }
    }
}
