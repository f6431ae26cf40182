import RunusCore

/// Labels the parts of a track stationary / walk / run / cycle / vehicle (records 0140–0143).
///
/// The track is cut into windows of about `windowDuration` seconds (at least `minPoints` fixes,
/// never across a gap longer than `maxGap`); a window whose net displacement speed is under
/// `stationarySpeed` is stationary (a rule), any other is labelled by a random forest over its
/// `SegmentFeatures`. Segments across a long gap take the label of the window before them.
/// `default` is the shipped forest (`ActivityClassifier+Shipped.swift`); training, synthetic
/// tracks and evaluation are `ActivityLab`'s.
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
        "context_accel_p90_median_mps2", "context_sustained_30s_max_mps",
        "wide_context_sustained_60s_max_mps", "wide_context_chord_speed_p50_median_mps",
    ]
    /// Windows on each side whose features form a window's context (3: about ±6 minutes; a
    /// bus stop or a traffic jam looks like walking alone, not next to a fast stretch).
    public static let contextWindows = 3
    /// Windows on each side of the wide context (10: about ±20 minutes, record 0146).
    public static let wideContextWindows = 10
    /// Windows on each side within which a vehicle's speed lets a window be `vehicle` (10, the
    /// wide context: a bus is fast somewhere within 20 minutes of a stop or a jam; record 0131).
    public static let evidenceWindows = 10
    /// Probability of `vehicle`, in (0, 1], from which a window with vehicle evidence is labelled
    /// `vehicle` even when another class is more probable (0.35, record 0131): the evidence gate
    /// already keeps runs that never reach a vehicle's speed out of reach.
    public var vehicleThreshold = 0.35

    /// Forest inputs of consecutive windows of one part of a track (a stretch the speed rule
    /// leaves to the classifier): each window's features followed by summaries over the
    /// windows within `contextWindows` (and `wideContextWindows`) of it, itself included.
    public static func vectors(_ features: [SegmentFeatures]) -> [[Double]] {
        features.indices.map { vector(at: $0, in: features) }
    }

    /// The forest input of window `i` of `features` (one element of `vectors(features)`, the
    /// same bits), looking only at the windows of its context.
    public static func vector(at i: Int, in features: [SegmentFeatures]) -> [Double] {
        let last = features.count - 1
        let near = features[max(0, i - contextWindows)...min(last, i + contextWindows)]
        let wide = features[max(0, i - wideContextWindows)...min(last, i + wideContextWindows)]
        func median(_ xs: [Double]) -> Double { SegmentFeatures.percentile(xs.sorted(), 0.5) }
        return features[i].values + [
            near.map { $0.values[ContextIndex.p95] }.max()!, median(near.map { $0.values[ContextIndex.p50] }),
            near.map { $0.values[ContextIndex.stop] }.reduce(0, +) / Double(near.count),
            median(near.map { $0.values[ContextIndex.accel] }),
            near.map { $0.values[ContextIndex.s30] }.max()!,
            wide.map { $0.values[ContextIndex.s60] }.max()!, median(wide.map { $0.values[ContextIndex.chord] }),
        ]
    }

    /// Positions in `SegmentFeatures.names` of the features the context summarises.
    private enum ContextIndex {
        static func index(_ name: String) -> Int { SegmentFeatures.names.firstIndex(of: name)! }
        static let p95 = index("speed_p95_mps"), p50 = index("speed_p50_mps"), stop = index("stop_fraction")
        static let accel = index("accel_p90_mps2"), s30 = index("sustained_speed_30s_max_mps")
        static let s60 = index("sustained_speed_60s_max_mps"), chord = index("chord_speed_30s_p50_mps")
    }

    /// Label of one window from its features and forest inputs (`vectors`): `vehicle` when
    /// `vehicleEvidence` holds (record 0130) and the forest gives it at least `vehicleThreshold`,
    /// else the forest's most probable other class.
    public func classify(_ features: SegmentFeatures, vector: [Double],
                         vehicleEvidence: Bool = true) -> (activity: ActivityClass, probability: Double) {
        if features.netSpeed < windowing.stationarySpeed { return (.stationary, 1) }
        let probabilities = forest.probabilities(vector)
        let vehicle = ActivityClass.moving.firstIndex(of: .vehicle)!
        if vehicleEvidence && probabilities[vehicle] >= vehicleThreshold { return (.vehicle, probabilities[vehicle]) }
        var best: Int?
        for k in probabilities.indices where k != vehicle {
            if best.map({ probabilities[k] > probabilities[$0] }) ?? true { best = k }
        }
        return (ActivityClass.moving[best!], probabilities[best!])
    }

    /// Labelled parts of `points[lo...hi]` (times strictly increasing, e.g. a cleaned track):
    /// one `ActivitySegment` per window, neighbours with the same label merged, together
    /// covering points lo+1…hi. A window may be `vehicle` (`classify`) when `vehicleEvidence`
    /// holds for it or a window within `evidenceWindows` of it, where a vehicle part just before lo
    /// (`vehicleBefore`) or after hi (`vehicleAfter`) counts as such a window; by default every
    /// window may.
    public func segments(_ points: [TrackPoint], from lo: Int, through hi: Int,
                         vehicleEvidence: (ClosedRange<Int>) -> Bool = { _ in true },
                         vehicleBefore: Bool = false, vehicleAfter: Bool = false) -> [ActivitySegment] {
        guard hi > lo else { return [] }
        var labels = [ActivityClass?](repeating: nil, count: hi - lo + 1)
        var confidence = [Double](repeating: 1, count: hi - lo + 1)
        let windows = windowing.windows(points, from: lo, through: hi)
        let features = windows.map { SegmentFeatures(points: points[$0]) }
        let vectors = Self.vectors(features)
        // A window may be `vehicle` when it or a window of its context shows a vehicle's speed
        // (record 0130): a bus at a stop next to its fast stretch stays a bus.
        // The speed rule's vehicle stretch next to the part counts as a window with evidence.
        let evidence = windows.map(vehicleEvidence)
        let c = Self.evidenceWindows
        for (k, vector) in vectors.enumerated() {
            let w = windows[k]
            let near = evidence[max(0, k - c)...min(windows.count - 1, k + c)].contains(true)
                || (vehicleBefore && k < c) || (vehicleAfter && k >= windows.count - c)
            let (activity, p) = classify(features[k], vector: vector, vehicleEvidence: near)
            for i in (w.lowerBound + 1)...w.upperBound { labels[i - lo] = activity; confidence[i - lo] = p }
        }
        // Gap segments: the label before them, else the first label after, else stationary.
        var previous: ActivityClass? = nil
        for k in 1..<labels.count {
            if let l = labels[k] { previous = l } else if let previous { labels[k] = previous }
        }
        let firstLabel = labels.dropFirst().first { $0 != nil } ?? nil
        var result: [ActivitySegment] = []
        var start = lo + 1
        for i in (lo + 1)...hi {
            let current = labels[i - lo] ?? firstLabel ?? .stationary
            let next = i < hi ? labels[i + 1 - lo] ?? firstLabel ?? .stationary : nil
            if next != current {
                result.append(ActivitySegment(range: start...i, activity: current, confidence: confidence[i - lo]))
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
