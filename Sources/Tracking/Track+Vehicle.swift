import RunusCore

extension Track {
    /// Which segments were travelled in a vehicle (records 0106, 0144): element i is true when
    /// the segment ending at point i is part of a sustained fast stretch (`vehicleSpeedRule`)
    /// or, when `configuration.classifyActivities`, of a `vehicle` part of `activitySegments`.
    /// Element 0 is always false. Times must increase (a cleaned track).
    public func vehicleSegments(configuration: MetricsConfiguration = .default,
                                classifier: ActivityClassifier? = nil) -> [Bool] {
        guard configuration.classifyActivities, points.count >= 2 else { return vehicleSpeedRule(configuration: configuration) }
        return vehicleFlags(activitySegments(configuration: configuration, classifier: classifier))
    }

    /// Element i is true when the segment ending at point i lies in a `vehicle` part of
    /// `segments` (`activitySegments` of this track); element 0 is false.
    func vehicleFlags(_ segments: [ActivitySegment]) -> [Bool] {
        var vehicle = [Bool](repeating: false, count: points.count)
        for segment in segments where segment.activity == .vehicle {
            for i in segment.range { vehicle[i] = true }
        }
        return vehicle
    }

    /// Every segment labelled (records 0144, 0130): the speed rule's stretches are `vehicle`, the
    /// rest is labelled by the classifier, where a `vehicle` window without a windowed speed above
    /// `vehicleSpeed` for `vehicleClassifierMinFast` seconds takes the forest's next class, and a
    /// `vehicle` stretch shorter than `configuration.vehicleClassifierMinDuration` takes its
    /// neighbour's label (the previous one, else the next). Together the parts cover points
    /// 1…count−1.
    public func activitySegments(configuration: MetricsConfiguration = .default,
                                 classifier: ActivityClassifier? = nil) -> [ActivitySegment] {
        guard points.count >= 2 else { return [] }
        let classifier = classifier ?? .default
        let windowed = windowedSpeeds(halfWidth: configuration.vehicleWindowHalfWidth)
        let rule = vehicleSpeedRule(windowed: windowed, configuration: configuration)
        let evidence = { (window: ClosedRange<Int>) -> Bool in
            Track.hasVehicleEvidence(window, time: { points[$0].time }, windowed: { windowed[$0] },
                                     chordSpeed: { Track.speed(points[$0], points[$1]) },
                                     speed: configuration.vehicleSpeed, minDuration: configuration.vehicleClassifierMinFast)
        }
        var result: [ActivitySegment] = []
        var i = 1
        for part in nonVehicleParts(rule) {
            if part.lowerBound + 1 > i {
                result.append(ActivitySegment(range: i...part.lowerBound, activity: .vehicle, confidence: 1))
            }
            result += suppressShortVehicles(classifier.segments(points, from: part.lowerBound, through: part.upperBound,
                                                                                vehicleEvidence: evidence,
                                                                                vehicleBefore: part.lowerBound > 0,
                                                                                vehicleAfter: part.upperBound < points.count - 1),
                                            minDuration: configuration.vehicleClassifierMinDuration)
            i = part.upperBound + 1
        }
        if i < points.count {
            result.append(ActivitySegment(range: i...(points.count - 1), activity: .vehicle, confidence: 1))
        }
        return result
    }

    /// Relabels classifier `vehicle` stretches shorter than `minDuration` seconds with their
    /// neighbour's label and merges equal neighbours.
    func suppressShortVehicles(_ segments: [ActivitySegment], minDuration: Seconds) -> [ActivitySegment] {
        var labelled = segments
        for k in labelled.indices where labelled[k].activity == .vehicle {
            let s = labelled[k]
            guard points[s.range.upperBound].time - points[s.range.lowerBound - 1].time < minDuration else { continue }
            let neighbour = k > 0 ? labelled[k - 1] : k + 1 < labelled.count ? labelled[k + 1] : nil
            if let neighbour, neighbour.activity != .vehicle {
                labelled[k] = ActivitySegment(range: s.range, activity: neighbour.activity, confidence: neighbour.confidence)
            }
        }
        var merged: [ActivitySegment] = []
        for s in labelled {
            if let last = merged.last, last.activity == s.activity {
                merged[merged.count - 1] = ActivitySegment(range: last.range.lowerBound...s.range.upperBound,
                                                           activity: s.activity, confidence: min(last.confidence, s.confidence))
            } else {
                merged.append(s)
            }
        }
        return merged
    }

    /// Maximal point ranges [a, e] (a < e) whose segments a+1…e are all unflagged.
    package func nonVehicleParts(_ flags: [Bool]) -> [ClosedRange<Int>] {
        var parts: [ClosedRange<Int>] = []
        var i = 1
        while i < flags.count {
            guard !flags[i] else { i += 1; continue }
            let a = i - 1
            while i < flags.count && !flags[i] { i += 1 }
            parts.append(a...(i - 1))
        }
        return parts
    }

    /// The sustained-speed rule (records 0106, 0130): element i is true when the segment ending
    /// at point i belongs to a stretch whose windowed speed (`windowedSpeeds`) stays above
    /// `configuration.vehicleSpeed` (or that is a dropout a vehicle crossed, record 0132) for at
    /// least `configuration.vehicleMinDuration` seconds, or lies between two such stretches less
    /// than `configuration.vehicleGapTolerance` seconds apart (traffic lights). Element 0 is always
    /// false. Times must increase.
    public func vehicleSpeedRule(configuration: MetricsConfiguration = .default) -> [Bool] {
        vehicleSpeedRule(windowed: windowedSpeeds(halfWidth: configuration.vehicleWindowHalfWidth), configuration: configuration)
    }

    func vehicleSpeedRule(windowed w: [Double], configuration: MetricsConfiguration) -> [Bool] {
        let n = points.count
        var vehicle = [Bool](repeating: false, count: n)
        var lastEnd: Int?          // last segment of the last vehicle stretch
        func fast(_ s: Int) -> Bool {
            w[s] > configuration.vehicleSpeed || Track.isVehicleDropout(points[s - 1], points[s], configuration: configuration)
        }
        var i = 1
        while i < n {
            guard fast(i) else { i += 1; continue }
            var j = i
            while j + 1 < n && fast(j + 1) { j += 1 }
            if points[j].time - points[i - 1].time >= configuration.vehicleMinDuration {
                var from = i
                if let e = lastEnd, points[i - 1].time - points[e].time < configuration.vehicleGapTolerance { from = e + 1 }
                for s in from...j { vehicle[s] = true }
                lastEnd = j
            }
            i = j + 1
        }
        return vehicle
    }

    /// Whether the step from `p` to `q` is a dropout a vehicle crossed (record 0132): no fix for
    /// longer than `configuration.vehicleDropoutDuration` seconds, and the straight line covered
    /// at `configuration.vehicleDropoutSpeed` or faster. Its windowed speed is about the same
    /// straight line over the same time, so the sustained-speed rule judges it at the vehicle
    /// speed; a dropout is no GPS noise, so the slower dropout speed is enough.
    @inline(__always)
    static func isVehicleDropout(_ p: TrackPoint, _ q: TrackPoint, configuration: MetricsConfiguration) -> Bool {
        q.time - p.time > configuration.vehicleDropoutDuration && speed(p, q) >= configuration.vehicleDropoutSpeed
    }

    /// The windowed speed of every segment in m/s, ≥ 0 (record 0130; element 0 is 0): the
    /// straight-line displacement across the segment and at least `halfWidth` seconds of fixes on
    /// each side (fewer at the track's ends), divided by the window's duration. The window is
    /// `AutoPause`'s (record 0151): a GPS step of a few metres changes it by a few metres over
    /// ≥ 10 s. Times must increase.
    public func windowedSpeeds(halfWidth: Seconds) -> [Double] {
        let n = points.count
        var speeds = [Double](repeating: 0, count: n)
        var a = 0, b = 0
        for s in 1..<max(n, 1) {
            while a + 1 <= s - 1 && points[s - 1].time - points[a + 1].time >= halfWidth { a += 1 }
            b = max(b, s)
            while b < n - 1 && points[b].time - points[s].time < halfWidth { b += 1 }
            speeds[s] = Track.speed(points[a], points[b])
        }
        return speeds
    }

    /// Whether a classifier window [a, e] shows a vehicle's speed (records 0130, 0131): somewhere
    /// among its segments a+1…e the windowed speed stays above `speed` (m/s) for at least
    /// `minDuration` seconds (0: at one segment), and the straight line from the fix where that
    /// stretch starts to the fix where it ends is covered faster than `speed` too (`chordSpeed`;
    /// by default not checked): a GPS jump or drift lifts the windowed speed for as long as it lies
    /// inside the window, but the fixes around it are where the runner really was.
    /// `time(i)` and `windowed(i)` are fix i's time and the windowed speed of the segment ending
    /// at it; `chordSpeed(i, j)` the straight-line speed from fix i to fix j > i in m/s.
    static func hasVehicleEvidence(_ window: ClosedRange<Int>, time: (Int) -> EpochSeconds, windowed: (Int) -> Double,
                                   chordSpeed: (Int, Int) -> Double = { _, _ in .infinity },
                                   speed: Double, minDuration: Seconds) -> Bool {
        guard window.upperBound > window.lowerBound else { return false }
        // A stretch of fixes from...to whose segments are all fast.
        func holds(_ from: Int, _ to: Int) -> Bool {
            time(to) - time(from) >= minDuration && chordSpeed(from, to) > speed
        }
        var start: Int?
        for s in (window.lowerBound + 1)...window.upperBound {
            if windowed(s) > speed {
                if start == nil { start = s - 1 }
            } else if let from = start {
                if holds(from, s - 1) { return true }
                start = nil
            }
        }
        if let from = start, holds(from, window.upperBound) { return true }
        return false
    }
}
