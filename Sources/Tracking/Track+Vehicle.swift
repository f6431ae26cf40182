import RunusCore

extension Track {
    /// Which segments were travelled in a vehicle, by a speed rule (record 0106): element i is
    /// true when the segment ending at point i belongs to a stretch lasting at least
    /// `configuration.vehicleMinDuration` seconds in which every segment is faster than
    /// `configuration.vehicleSpeed`, allowing dips below it shorter than
    /// `configuration.vehicleGapTolerance` seconds (traffic). Element 0 is always false.
    ///
    /// This is the thin first rule: speed alone cannot tell a fast cyclist from a bus, and a bus
    /// in a traffic jam from a runner; the trained segment classifier (issue 3) replaces it.
    public func vehicleSegments(configuration: MetricsConfiguration = .default) -> [Bool] {
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
