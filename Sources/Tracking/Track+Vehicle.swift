import RunusCore

extension Track {
    /// Which segments were travelled in a vehicle (records 0106, 0144): element i is true when
    /// the segment ending at point i is part of a sustained fast stretch (`vehicleSpeedRule`)
    /// or of a window the activity classifier labels `vehicle` (when
    /// `configuration.classifyActivities`). Element 0 is always false. Times must increase
    /// (a cleaned track).
    public func vehicleSegments(configuration: MetricsConfiguration = .default,
                                classifier: ActivityClassifier? = nil) -> [Bool] {
        var vehicle = vehicleSpeedRule(configuration: configuration)
        guard configuration.classifyActivities, points.count >= 2 else { return vehicle }
        let classifier = classifier ?? .default
        for part in nonVehicleParts(vehicle) {
            for segment in classifier.segments(points, from: part.lowerBound, through: part.upperBound)
            where segment.activity == .vehicle {
                for i in segment.range { vehicle[i] = true }
            }
        }
        return vehicle
    }

    /// Every segment labelled (record 0144): the speed rule's stretches are `vehicle`, the rest
    /// is labelled by the classifier. Together the parts cover points 1…count−1.
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
            result += classifier.segments(points, from: part.lowerBound, through: part.upperBound)
            i = part.upperBound + 1
        }
        if i < points.count {
            result.append(ActivitySegment(range: i...(points.count - 1), activity: .vehicle, confidence: 1))
        }
        return result
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
