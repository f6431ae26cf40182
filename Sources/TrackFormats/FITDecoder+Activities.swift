import RunusCore
import Tracking

extension FITDecoder {
    /// Degrees per semicircle (180 / 2^31).
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    /// Sport names of the FIT profile's `sport` enum (the common ones).
    static let sportNames: [Int: String] = [
        0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming",
        10: "training", 11: "walking", 13: "e_biking", 15: "rowing", 17: "hiking", 21: "motorcycling",
    ]

    /// The records whose time `inside` accepts (a record without a time has time NaN): their
    /// fixes (those with a position), their device distance readings (field 5, `distance`,
    /// 1/100 m, with or without a position; record 0116), and how many records there were. One
    /// pass straight into the two arrays (no array of every record's values in between).
    func collect(_ inside: (Double) -> Bool) -> (points: [TrackPoint], readings: [DistanceSample], count: Int) {
        var points: [TrackPoint] = [], readings: [DistanceSample] = [], count = 0
        points.reserveCapacity(records.count)
        for r in records {
            let time = r.time.map { Double($0) + FITReader.epochOffset } ?? .nan
            guard inside(time) else { continue }
            count += 1
            let (point, reading) = Self.decode(r.values, time: time)
            if let reading { readings.append(reading) }
            if let point { points.append(point) }
        }
        return (points, readings, count)
    }

    /// Every record in order: its time (NaN without one), its fix and its reading (`collect`'s
    /// definitions; the fitparse truth tables compare them record by record).
    func fixes() -> [(time: Double, point: TrackPoint?, reading: DistanceSample?)] {
        records.map { r in
            let time = r.time.map { Double($0) + FITReader.epochOffset } ?? .nan
            let (point, reading) = Self.decode(r.values, time: time)
            return (time, point, reading)
        }
    }

    /// One record's fix (when it has a position with a latitude in [-90, 90]) and device
    /// distance reading (when it has a distance and a finite time).
    @inline(__always)
    static func decode(_ values: [(UInt8, Double)], time: Double) -> (point: TrackPoint?, reading: DistanceSample?) {
        var lat: Double? = nil, lon: Double? = nil, alt: Double? = nil, enhancedAlt: Double? = nil
        var hr: Double? = nil, cad: Double? = nil, fraction: Double? = nil, distance: Double? = nil
        for (n, v) in values {
            switch n {
            case 0: lat = v * degreesPerSemicircle
            case 1: lon = v * degreesPerSemicircle
            case 2: alt = v / 5 - 500
            case 78: enhancedAlt = v / 5 - 500
            case 3: hr = v
            case 4: cad = v
            case 5: distance = v / 100
            case 53: fraction = v / 128
            default: break
            }
        }
        if let f = fraction, let c = cad { cad = c + f }
        let reading = distance.flatMap { d in time.isFinite ? DistanceSample(time: time, distance: d, heartRate: hr, cadence: cad) : nil }
        guard let lat, let lon, (-90...90).contains(lat) else { return (nil, reading) }
        return (TrackPoint(time: time, latitude: lat, longitude: lon, elevation: enhancedAlt ?? alt, heartRate: hr, cadence: cad), reading)
    }

    /// Totals of a session (`isLap` false) or lap message, scaled to SI units.
    static func totals(_ m: FITMessage, isLap: Bool) -> DeviceTotals {
        var t = DeviceTotals()
        t.startTime = m.value(2).map { $0 + FITReader.epochOffset }
        t.elapsedTime = m.value(7).map { $0 / 1000 }
        t.timerTime = m.value(8).map { $0 / 1000 }
        t.distance = m.value(9).map { $0 / 100 }
        t.calories = m.value(11)
        if isLap {
            t.averageHeartRate = m.value(15); t.maximumHeartRate = m.value(16)
            t.averageCadence = m.value(17); t.maximumCadence = m.value(18)
            t.ascent = m.value(21); t.descent = m.value(22)
        } else {
            t.averageHeartRate = m.value(16); t.maximumHeartRate = m.value(17)
            t.averageCadence = m.value(18); t.maximumCadence = m.value(19)
            t.ascent = m.value(22); t.descent = m.value(23)
        }
        return t
    }

    /// One activity per session; records and laps are assigned to the session whose time span
    /// [start, start + elapsed] holds them (all of them when there is one session).
    func activities() -> [Activity] {
        if sessions.isEmpty {
            guard !records.isEmpty else { return [] }
            let all = collect { _ in true }
            return [Activity(track: Track(points: all.points, deviceDistances: all.readings), segmentStarts: all.points.isEmpty ? [] : [0],
                             recordCount: all.count, laps: laps.map { Self.totals($0, isLap: true) })]
        }
        let sessionTotals = sessions.map { Self.totals($0, isLap: false) }
        return sessionTotals.enumerated().map { (k, totals) in
            let single = sessions.count == 1
            let start = totals.startTime ?? -.infinity
            let end = totals.elapsedTime.map { start + $0 } ?? sessions[k].timestamp.map { Double($0) + FITReader.epochOffset } ?? .infinity
            func inside(_ t: Double) -> Bool { single || (t >= start && t <= end) }
            let mine = collect(inside)
            let myLaps = laps.map { Self.totals($0, isLap: true) }.filter { lap in
                single || lap.startTime.map(inside) ?? false
            }
            let sport = sessions[k].value(5).flatMap { Self.sportNames[Int($0)] ?? "sport_\(Int($0))" }
            return Activity(sport: sport, track: Track(points: mine.points, deviceDistances: mine.readings),
                            segmentStarts: mine.points.isEmpty ? [] : [0],
                            recordCount: mine.count, deviceTotals: totals, laps: myLaps)
        }
    }
}
