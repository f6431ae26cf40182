import RunusCore

/// One reading of the device's own cumulative distance: a FIT `record` message's `distance`, a
/// TCX `Trackpoint/DistanceMeters`, or the seventh value of a `runs.ingest` point. A reading
/// needs no position: a treadmill run (foot pod or wrist accelerometer) is a stream of them and
/// no fix at all. `Track.deviceDistances` holds them; record 0116 says when the run record's
/// distance comes from them.
public struct DistanceSample: Sendable, Equatable {
    /// Instant of the reading, Unix seconds (UTC, may have a fraction).
    public var time: EpochSeconds
    /// Distance since the recording started, metres, as the device reports it (≥ 0,
    /// non-decreasing in a sound stream; `DeviceDistance.usable` checks).
    public var distance: Meters
    /// Heart rate in bpm at the reading, typically 30...230; `nil` if absent. Kept here so that
    /// a run without positions still has its heart rate.
    public var heartRate: Double? {
        get { storedHeartRate.isNaN ? nil : storedHeartRate }
        set { storedHeartRate = newValue ?? .nan }
    }
    /// Cadence in steps per minute (both feet) at the reading; `nil` if absent.
    public var cadence: Double? {
        get { storedCadence.isNaN ? nil : storedCadence }
        set { storedCadence = newValue ?? .nan }
    }
    /// NaN when absent, as in `TrackPoint` (32 bytes a reading instead of 48; a FIT file gives
    /// one per record).
    private var storedHeartRate: Double, storedCadence: Double

    public init(time: EpochSeconds, distance: Meters, heartRate: Double? = nil, cadence: Double? = nil) {
        self.time = time
        self.distance = distance
        storedHeartRate = heartRate ?? .nan
        storedCadence = cadence ?? .nan
    }

    /// Field by field, absent equal to absent.
    public static func == (a: DistanceSample, b: DistanceSample) -> Bool {
        a.time == b.time && a.distance == b.distance && a.heartRate == b.heartRate && a.cadence == b.cadence
    }
}

/// Where a run record's distance comes from (record 0116).
public enum DistanceSource: String, Sendable, Equatable, CaseIterable {
    /// The cleaned, jitter-filtered GPS steps outside vehicle parts (records 0101, 0150, 0151).
    case gps
    /// The device's own distance stream (`DistanceSample`s), over the same kept steps, vehicle
    /// parts still left out (record 0116); or the stream alone when the run has no positions.
    case device
    /// Totals only: a summary the phone sent, or a file's lap or session totals (record 0232).
    case summary
}
