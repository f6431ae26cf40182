import RunusCore

/// Summary of one run, computed from a raw track: cleaning (record 0101), stationary jitter
/// (0150), auto-pause with hysteresis on a smoothed speed (0102, 0151), elevation with
/// hysteresis over the kept steps (0103, 0153), calories (0104).
///
/// Two questions are kept apart (record 0151): *is this distance real?* — every cleaned step
/// counts, less the jitter of a runner standing still (`JitterFilter`) — and *is the runner
/// moving?* — `AutoPause`, which decides moving time. Vehicle parts (record 0106) are left out: leading and trailing ones are cut off, and
/// one in the middle counts neither distance nor moving time. An empty track gives zeros (start
/// and end 0); one fix gives zero distance.
///
/// When the track carries the device's own distance readings (`Track.deviceDistances`), the
/// distance of each kept step is the device's if its stream is sound against the fixes, vehicle
/// parts still left out; a track with readings and no positions (a treadmill) is measured by
/// its stream alone (record 0116). `init(summary:)` is a run known by its totals (record 0232).
public struct RunMetrics: Sendable {
    /// First kept fix, Unix seconds.
    public let startTime: EpochSeconds
    /// Last kept fix, Unix seconds.
    public let endTime: EpochSeconds
    /// Distance in metres, ≥ 0: jitter-filtered steps outside vehicle parts (record 0151).
    public let distance: Meters
    /// endTime − startTime in seconds, ≥ 0.
    public let elapsed: Seconds
    /// Time spent moving (auto-pause excluded) in seconds, in [0, elapsed].
    public let moving: Seconds
    /// Total climb in metres over the kept steps (vehicle parts add nothing, record 0153), ≥ 0
    /// (0 without elevation data).
    public let elevationGain: Meters
    /// Total descent in metres over the kept steps, ≥ 0 (0 without elevation data).
    public let elevationLoss: Meters
    /// Elapsed time per km in s/km; nil when distance is 0.
    public let averagePace: SecondsPerKm?
    /// Moving time per km in s/km; nil when distance is 0.
    public let movingPace: SecondsPerKm?
    /// Per-km splits by moving time, the last one partial.
    public let splits: [Split]
    /// Per-mile (1,609.344 m) splits by moving time, the last one partial.
    public let mileSplits: [Split]
    /// Energy estimate in kcal (±20 %, record 0104), when a body mass was given.
    public let calories: Double?
    /// Time-weighted mean heart rate in bpm over segments with heart rate at both ends; nil
    /// when the track has no heart rate.
    public let averageHeartRate: Double?
    /// Highest heart rate in bpm over the run's fixes; nil without heart rate.
    public let maxHeartRate: Double?
    /// Time-weighted mean cadence in steps per minute over moving segments with a positive
    /// cadence at both ends (a stopped runner's 0 is left out, as watches do); nil without them.
    public let averageCadence: Double?
    /// Highest cadence in steps per minute over the run's fixes; nil without cadence.
    public let maxCadence: Double?
    /// Cumulative distance against time of the cleaned track.
    public let profile: DistanceProfile
    /// The cleaned track's labelled parts in order (`Track.activitySegments`: the classification
    /// whose vehicle parts this record leaves out), together covering it from its first fix to
    /// its last; empty when the configuration does not classify (`classifyActivities` false) or
    /// the cleaned track has fewer than 2 fixes.
    public let activityParts: [ActivityPart]
    /// Where `distance` comes from (record 0116): the GPS steps, the device's distance stream
    /// over the same steps, or a summary's total.
    public let distanceSource: DistanceSource
    /// The GPS sum over the kept steps in metres (what `distance` is without the device's
    /// stream); nil without positions.
    public let gpsDistance: Meters?
    /// The device stream's distance over the kept steps in metres when it was used (then equal
    /// to `distance`); nil otherwise.
    public let deviceDistance: Meters?
    /// Why the track's device distance readings were not used, or which part of them was not,
    /// one sentence naming the reading or the figures; nil when it had none or all were used.
    public let deviceDistanceNote: String?
    /// Whether the record's fixes have positions: false for a run measured by its device stream
    /// alone and for a summary, whose missions cannot check places or heights.
    public let hasPositions: Bool

    /// - Parameters:
    ///   - weightKg: body mass in kg (> 0), needed for calories.
    public init(track: Track, weightKg: Double? = nil, configuration: MetricsConfiguration = .default) {
        let cleaned = track.cleaned(configuration: configuration)
        // No positions, or fixes over less than half the readings' time (a treadmill that caught
        // a few fixes by a window): the stream alone (record 0116).
        var streamNote: String? = nil
        if !track.deviceDistances.isEmpty, configuration.useDeviceDistance,
           RunMetrics.readingsOutlast(cleaned.points, track.deviceDistances) {
            switch RunMetrics.streamOnly(track.deviceDistances, weightKg: weightKg, configuration: configuration) {
            case .success(let metrics): self = metrics; return
            case .failure(let problem): streamNote = problem.description
            }
        }
        // Classified once: the vehicle flags come from the same segments as `activityParts`
        // (`Track.vehicleSegments`, without a second classification).
        let classified = configuration.classifyActivities && cleaned.points.count >= 2
        let segments = classified ? cleaned.activitySegments(configuration: configuration) : []
        activityParts = ActivityPart.parts(segments, of: cleaned.points)
        var vehicle = classified ? cleaned.vehicleFlags(segments) : cleaned.vehicleSpeedRule(configuration: configuration)
        // Cut leading and trailing vehicle parts: the run starts when the runner leaves the car.
        var first = 0, last = cleaned.points.count - 1
        while first < last && vehicle[first + 1] {
            first += 1
        }
        while last > first && vehicle[last] {
            last -= 1
        }
        let points = cleaned.points.isEmpty ? [] : Array(cleaned.points[first...last])
        vehicle = cleaned.points.isEmpty ? [] : Array(vehicle[first...last])
        if !vehicle.isEmpty { vehicle[0] = false }
        let n = points.count
        // Stationary jitter out (record 0150), then auto-pause on the smoothed speed (0151).
        let steps = JitterFilter.spreadSteps(points, radius: configuration.jitterRadius,
                                             spreadLimit: 2 * configuration.pauseWindowHalfWidth)
        let movingStates = AutoPause.flags(points, configuration: configuration)
        // The steps whose distance counts: outside vehicle parts (and moving, when configured).
        let counted = points.indices.map { i in
            i > 0 && !vehicle[i] && (!configuration.distanceOnlyWhileMoving || movingStates[i])
        }
        // The device's distance over the same steps, when its stream is sound (record 0116).
        var deviceSteps: [Meters]? = nil
        var deviceNote = streamNote
        if n >= 2, !track.deviceDistances.isEmpty, configuration.useDeviceDistance {
            do {
                let stream = try DeviceDistance.usable(track.deviceDistances)
                switch DeviceDistance.steps(stream: stream, times: points.map(\.time), counted: counted, gpsSteps: steps,
                                            configuration: configuration) {
                case .success(let laid): deviceSteps = laid.steps; deviceNote = laid.note
                case .failure(let problem): deviceNote = problem.description
                }
            } catch {
                deviceNote = error.description
            }
        }
        var times: [EpochSeconds] = [], distances: [Meters] = [], movingFlags: [Bool] = []
        times.reserveCapacity(n); distances.reserveCapacity(n); movingFlags.reserveCapacity(n)

        var cumulative: Meters = 0, gpsCumulative: Meters = 0, movingTime: Seconds = 0
        var hrWeighted = 0.0, hrSeconds = 0.0, cadenceWeighted = 0.0, cadenceSeconds = 0.0
        var maxHR: Double? = nil, maxCad: Double? = nil
        var elevation = KeptElevation(threshold: configuration.elevationThreshold)
        for (i, p) in points.enumerated() {
            let isMoving = i > 0 && movingStates[i] && !vehicle[i]
            if i > 0 {
                let q = points[i - 1]
                let dt = p.time - q.time
                if isMoving { movingTime += dt }
                if counted[i] {
                    cumulative += deviceSteps?[i] ?? steps[i]
                    gpsCumulative += steps[i]
                }
                if let h0 = q.heartRate, let h1 = p.heartRate {
                    hrWeighted += (h0 + h1) / 2 * dt; hrSeconds += dt
                }
                if isMoving, let c0 = q.cadence, let c1 = p.cadence, c0 > 0, c1 > 0 {
                    cadenceWeighted += (c0 + c1) / 2 * dt; cadenceSeconds += dt
                }
            }
            if let h = p.heartRate { maxHR = max(maxHR ?? h, h) }
            if let c = p.cadence { maxCad = max(maxCad ?? c, c) }
            elevation.add(p.elevation, kept: !vehicle[i])
            times.append(p.time)
            distances.append(cumulative)
            movingFlags.append(isMoving)
        }
        let profile = DistanceProfile(times: times, distances: distances, moving: movingFlags)
        self.profile = profile
        startTime = points.first?.time ?? 0
        endTime = points.last?.time ?? 0
        distance = cumulative
        elapsed = endTime - startTime
        moving = movingTime
        averagePace = Pace.secondsPerKm(distance: cumulative, duration: elapsed)
        movingPace = Pace.secondsPerKm(distance: cumulative, duration: movingTime)
        splits = RunMetrics.splits(profile: profile, length: configuration.splitLength)
        mileSplits = RunMetrics.splits(profile: profile, length: RunMetrics.mile)
        elevationGain = elevation.gain
        elevationLoss = elevation.loss
        if let weightKg {
            precondition(weightKg > 0, "RunMetrics: weightKg must be positive, got \(weightKg)")
            calories = configuration.runningCostKcalPerKgKm * weightKg * cumulative / 1000
        } else {
            calories = nil
        }
        if hrSeconds > 0 {
            averageHeartRate = hrWeighted / hrSeconds
        } else {
            let hrs = points.compactMap(\.heartRate)
            averageHeartRate = hrs.isEmpty ? nil : hrs.reduce(0, +) / Double(hrs.count)
        }
        maxHeartRate = maxHR
        averageCadence = cadenceSeconds > 0 ? cadenceWeighted / cadenceSeconds : nil
        maxCadence = maxCad
        distanceSource = deviceSteps == nil ? .gps : .device
        gpsDistance = n >= 1 ? gpsCumulative : nil
        deviceDistance = deviceSteps == nil ? nil : cumulative
        deviceDistanceNote = deviceNote
        hasPositions = n >= 1
    }

    /// Every field given (paces derived), for the records that are not built from fixes
    /// (`RunMetrics+Device.swift`).
    init(startTime: EpochSeconds, endTime: EpochSeconds, distance: Meters, elapsed: Seconds, moving: Seconds,
         elevationGain: Meters, elevationLoss: Meters, splits: [Split], mileSplits: [Split], calories: Double?,
         averageHeartRate: Double?, maxHeartRate: Double?, averageCadence: Double?, maxCadence: Double?,
         profile: DistanceProfile, activityParts: [ActivityPart], distanceSource: DistanceSource,
         gpsDistance: Meters?, deviceDistance: Meters?, deviceDistanceNote: String?, hasPositions: Bool) {
        self.startTime = startTime; self.endTime = endTime; self.distance = distance
        self.elapsed = elapsed; self.moving = moving
        self.elevationGain = elevationGain; self.elevationLoss = elevationLoss
        averagePace = Pace.secondsPerKm(distance: distance, duration: elapsed)
        movingPace = Pace.secondsPerKm(distance: distance, duration: moving)
        self.splits = splits; self.mileSplits = mileSplits; self.calories = calories
        self.averageHeartRate = averageHeartRate; self.maxHeartRate = maxHeartRate
        self.averageCadence = averageCadence; self.maxCadence = maxCadence
        self.profile = profile; self.activityParts = activityParts
        self.distanceSource = distanceSource; self.gpsDistance = gpsDistance; self.deviceDistance = deviceDistance
        self.deviceDistanceNote = deviceDistanceNote; self.hasPositions = hasPositions
    }

    /// One mile in metres (international mile).
    public static let mile: Meters = 1609.344
    /// The best-effort distances a run record reports, in metres: 400 m, 1 km, 1 mile, 3 km,
    /// 5 km, 10 km, half marathon, marathon.
    public static let effortDistances: [Meters] = [400, 1000, mile, 3000, 5000, 10_000, 21_097.5, 42_195]

    /// Fastest elapsed time in seconds over each of `distances` (metres, > 0) that the run
    /// covers, in the order given (`DistanceProfile.fastestDuration(covering:)`, O(n) each);
    /// distances longer than the run are left out.
    public func bestEfforts(over distances: [Meters] = RunMetrics.effortDistances) -> [(distance: Meters, seconds: Seconds)] {
        distances.compactMap { d in profile.fastestDuration(covering: d).map { (d, $0) } }
    }

    /// Splits of `length` metres by moving time; the last one is partial when the distance is
    /// not a multiple (a remainder under 1 mm joins the split before it, as rounding).
    static func splits(profile: DistanceProfile, length: Meters) -> [Split] {
        let total = profile.totalDistance
        // No run covers more than a stored run may (1,000 km): a file whose clock or positions
        // are garbage can add up to 10^12 m, and its "splits" filled the memory (file fuzzer).
        guard total <= RunRecord.maximumStoredDistance else { return [] }
        var bounds: [Meters] = [0]
        var start: Meters = 0
        while total - start > 1e-3 {
            // A remainder under 1 mm joins this split rather than making its own.
            let end = total - (start + length) <= 1e-3 ? total : start + length
            bounds.append(end)
            start = end
        }
        let durations = profile.movingDurations(between: bounds)
        return durations.indices.map { r in
            Split(index: r + 1, distance: bounds[r + 1] - bounds[r], duration: durations[r])
        }
    }

    /// Gain and loss in metres of a plain height series with hysteresis `threshold` (record
    /// 0103; `ElevationHysteresis`): a turn counts only once the height has moved `threshold`
    /// from the reference; in a confirmed direction every new extreme ratchets the reference, so
    /// noise smaller than the threshold adds nothing. The record's own figures also leave out the
    /// vehicle steps (`KeptElevation`).
    static func elevationChange(_ heights: [Meters], threshold: Meters) -> (gain: Meters, loss: Meters) {
        var hysteresis = ElevationHysteresis(threshold: threshold)
        for h in heights { hysteresis.add(h) }
        return (hysteresis.gain, hysteresis.loss)
    }
}
