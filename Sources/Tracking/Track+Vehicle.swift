import RunusCore

extension Track {
    /// Which segments were travelled in a vehicle (records 0106, 0144): element i is true when
    /// the segment ending at point i is part of a sustained fast stretch (`vehicleSpeedRule`)
    /// or, when `configuration.classifyActivities`, of a `vehicle` part of `activitySegments`.
    /// Element 0 is always false. Times must increase (a cleaned track).
    public func vehicleSegments(configuration: MetricsConfiguration = .default,
                                classifier: ActivityClassifier? = nil) -> [Bool] {
        guard configuration.classifyActivities, points.count >= 2 else { return vehicleSpeedRule(configuration: configuration) }
        var vehicle = [Bool](repeating: false, count: points.count)
        for segment in activitySegments(configuration: configuration, classifier: classifier) where segment.activity == .vehicle {
            for i in segment.range { vehicle[i] = true }
        }
        return vehicle
    }

    /// Every segment labelled (record 0144): the speed rule's stretches are `vehicle`, the rest
    /// is labelled by the classifier, where a `vehicle` stretch shorter than
    /// `configuration.vehicleClassifierMinDuration` takes its neighbour's label (the previous
    /// one, else the next). Together the parts cover points 1…count−1.
    public func activitySegments(configuration: MetricsConfiguration = .default,
                                 classifier: ActivityClassifier? = nil) -> [ActivitySegment] {
        guard points.count >= 2 else { return [] }
        let classifier = classifier ?? .default
        let rule = vehicleSpeedRule(configuration: configuration)
        var result: [ActivitySegment] = []
        var i = 1
        for part in nonVehicleParts(rule) {
            if part.lowerBound + 1 > i {
                result.append(ActivitySegment(range: i...part.lowerBound, activity: .vehicle, confidence: 1))
            }
            result += suppressShortVehicles(classifier.segments(points, from: part.lowerBound, through: part.upperBound),
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
    func nonVehicleParts(_ flags: [Bool]) -> [ClosedRange<Int>] {
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

    /// The sustained-speed rule of record 0106: element i is true when the segment ending at
    /// point i belongs to a stretch lasting at least `configuration.vehicleMinDuration` seconds
    /// in which every segment is faster than `configuration.vehicleSpeed`, allowing dips below
    /// it shorter than `configuration.vehicleGapTolerance` seconds (traffic).
    public func vehicleSpeedRule(configuration: MetricsConfiguration = .default) -> [Bool] {
        let n = points.count
        var fast = [Bool](repeating: false, count: n)
        for i in 1..<max(n, 1) {
            let a = points[i - 1], b = points[i]
            let dt = b.time - a.time
            guard dt > 0 else { continue }
            let d = Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                          latitude2: b.latitude, longitude2: b.longitude)
            fast[i] = d / dt > configuration.vehicleSpeed
        }
        var vehicle = [Bool](repeating: false, count: n)
        var i = 1
        while i < n {
            guard fast[i] else { i += 1; continue }
            // Grow the stretch [start, end] over fast segments and short slow gaps.
            let start = i
            var end = i
            var j = i + 1
            while j < n {
                if fast[j] { end = j; j += 1; continue }
                var k = j
                while k < n, !fast[k] { k += 1 }
                guard k < n, points[k - 1].time - points[j - 1].time < configuration.vehicleGapTolerance else { break }
                end = k
                j = k + 1
            }
            if points[end].time - points[start - 1].time >= configuration.vehicleMinDuration {
                for s in start...end { vehicle[s] = true }
            }
            i = end + 1
        }
        return vehicle
    }
}
