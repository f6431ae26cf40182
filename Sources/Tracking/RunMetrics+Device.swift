import RunusCore

extension RunMetrics {
    /// The record of a run known only by its totals (record 0232): distance, elapsed and moving
    /// time as given, no splits, best efforts, climb or positions (its profile is empty), calories
    /// as given or else estimated from `weightKg` (record 0104). `distanceSource` is `.summary`.
    /// The caller checks the numbers (`runs.ingest`: record 0230); here a non-finite or negative
    /// value reads as 0 and moving time is clamped to [0, duration]. `deviceDistanceNote`: why a
    /// file's distance readings were not used instead, when that is why it is a summary.
    public init(summary: RunSummary, weightKg: Double? = nil, configuration: MetricsConfiguration = .default,
                deviceDistanceNote: String? = nil) {
        func clean(_ x: Double) -> Double { x.isFinite && x > 0 ? x : 0 }
        let distance = clean(summary.distance), elapsed = clean(summary.duration)
        let moving = min(elapsed, clean(summary.moving ?? elapsed))
        let start = summary.startTime.isFinite ? summary.startTime : 0
        var calories = summary.calories.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        if calories == nil, let weightKg, weightKg > 0 {
            calories = configuration.runningCostKcalPerKgKm * weightKg * distance / 1000
        }
        self.init(startTime: start, endTime: start + elapsed, distance: distance, elapsed: elapsed, moving: moving,
                  elevationGain: 0, elevationLoss: 0, splits: [], mileSplits: [], calories: calories,
                  averageHeartRate: summary.averageHeartRate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil },
                  maxHeartRate: nil, averageCadence: nil, maxCadence: nil,
                  profile: DistanceProfile(times: [], distances: [], moving: []), activityParts: [],
                  distanceSource: .summary, gpsDistance: nil, deviceDistance: nil, deviceDistanceNote: deviceDistanceNote,
                  hasPositions: false)
    }

    /// Whether a run is measured by its readings alone: fewer than 2 cleaned fixes, or fixes
    /// spanning less than half the time the readings span (a GPS that caught a few fixes
    /// indoors: their chord would be the whole run). O(n) on the readings.
    static func readingsOutlast(_ fixes: [TrackPoint], _ readings: [DistanceSample]) -> Bool {
        guard fixes.count >= 2, let firstFix = fixes.first, let lastFix = fixes.last else { return true }
        var first = EpochSeconds.infinity, last = -EpochSeconds.infinity
        for r in readings where r.time.isFinite { first = min(first, r.time); last = max(last, r.time) }
        return last > first && lastFix.time - firstFix.time < 0.5 * (last - first)
    }

    /// The record of a run without positions measured by the device's stream alone (a
    /// treadmill; record 0116): the profile is the stream's readings (distance from the first),
    /// moving time by `DeviceDistance.movingFlags`, heart rate and cadence from the readings,
    /// no climb. A step inside a window faster than `configuration.maxSpeed`
    /// (`DeviceDistance.jumps`) adds nothing, and `deviceDistanceNote` says so. Fails when the
    /// stream is unusable (a fall, fewer than 2 readings).
    static func streamOnly(_ samples: [DistanceSample], weightKg: Double?, configuration: MetricsConfiguration)
        -> Result<RunMetrics, DeviceDistance.Problem> {
        var stream: [DistanceSample]
        do { stream = try DeviceDistance.usable(samples) } catch { return .failure(error) }
        guard stream.count >= 2, let first = stream.first, let last = stream.last else { return .failure(.tooFew(count: stream.count)) }
        let times = stream.map(\.time)
        let (suspect, jump) = DeviceDistance.jumps(times: times, cumulative: stream.map(\.distance), configuration: configuration)
        var note: String? = nil
        if let jump {
            // The jumps add nothing: each later reading keeps the distance the sound steps give.
            var kept = stream, ignored: Seconds = 0
            kept[0].distance = 0
            for i in stream.indices.dropFirst() {
                let step = suspect[i] ? 0 : stream[i].distance - stream[i - 1].distance
                if suspect[i] { ignored += times[i] - times[i - 1] }
                kept[i].distance = kept[i - 1].distance + step
            }
            stream = kept
            note = DeviceDistance.jumpNote(jump, ignored: ignored, replacement: "nothing counts there")
        }
        let moving = DeviceDistance.movingFlags(stream, configuration: configuration)
        let base = stream[0].distance
        let distances = stream.map { $0.distance - base }
        var movingTime: Seconds = 0
        var hrWeighted = 0.0, hrSeconds = 0.0, cadenceWeighted = 0.0, cadenceSeconds = 0.0
        for i in stream.indices.dropFirst() {
            let a = stream[i - 1], b = stream[i], dt = b.time - a.time
            if moving[i] { movingTime += dt }
            if let h0 = a.heartRate, let h1 = b.heartRate { hrWeighted += (h0 + h1) / 2 * dt; hrSeconds += dt }
            if moving[i], let c0 = a.cadence, let c1 = b.cadence, c0 > 0, c1 > 0 {
                cadenceWeighted += (c0 + c1) / 2 * dt; cadenceSeconds += dt
            }
        }
        let profile = DistanceProfile(times: times, distances: distances, moving: moving)
        let distance = profile.totalDistance, elapsed = last.time - first.time
        let hrs = stream.compactMap(\.heartRate), cadences = stream.compactMap(\.cadence)
        var calories: Double? = nil
        if let weightKg, weightKg > 0 { calories = configuration.runningCostKcalPerKgKm * weightKg * distance / 1000 }
        return .success(RunMetrics(
            startTime: first.time, endTime: last.time, distance: distance, elapsed: elapsed, moving: movingTime,
            elevationGain: 0, elevationLoss: 0,
            splits: splits(profile: profile, length: configuration.splitLength), mileSplits: splits(profile: profile, length: mile),
            calories: calories,
            averageHeartRate: hrSeconds > 0 ? hrWeighted / hrSeconds : (hrs.isEmpty ? nil : hrs.reduce(0, +) / Double(hrs.count)),
            maxHeartRate: hrs.max(), averageCadence: cadenceSeconds > 0 ? cadenceWeighted / cadenceSeconds : nil,
            maxCadence: cadences.max(), profile: profile, activityParts: [],
            distanceSource: .device, gpsDistance: nil, deviceDistance: distance, deviceDistanceNote: note, hasPositions: false))
    }
}
