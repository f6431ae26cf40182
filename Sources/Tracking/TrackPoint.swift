import RunusCore

/// One GPS fix of a run, as recorded (before cleaning).
///
/// The optional readings are stored as plain doubles with NaN for "absent" (48 bytes instead of
/// 72 with three `Optional<Double>`s, each 9 bytes padded to 16), since every stage of the live
/// tracker copies fixes (record 0171). A NaN given for one of them therefore reads back as `nil`;
/// no reader produces one (they reject non-finite numbers).
public struct TrackPoint: Sendable, Equatable {
    /// Instant of the fix, Unix seconds (UTC, may have a fraction).
    public var time: EpochSeconds
    /// Latitude in degrees, WGS84, in [-90, 90].
    public var latitude: Double
    /// Longitude in degrees, WGS84, in [-180, 180] (other values are wrapped by the geodesy).
    public var longitude: Double
    /// Height above the ellipsoid or sea level in metres, as the device reports it; `nil` if absent.
    public var elevation: Meters? {
        get { storedElevation.isNaN ? nil : storedElevation }
        set { storedElevation = newValue ?? .nan }
    }
    /// Heart rate in beats per minute, typically 30...230; `nil` if absent.
    public var heartRate: Double? {
        get { storedHeartRate.isNaN ? nil : storedHeartRate }
        set { storedHeartRate = newValue ?? .nan }
    }
    /// Cadence in steps per minute (both feet), typically 100...220; `nil` if absent.
    public var cadence: Double? {
        get { storedCadence.isNaN ? nil : storedCadence }
        set { storedCadence = newValue ?? .nan }
    }
    /// The three readings above, NaN when absent.
    private var storedElevation: Double, storedHeartRate: Double, storedCadence: Double

    public init(time: EpochSeconds, latitude: Double, longitude: Double, elevation: Meters? = nil,
                heartRate: Double? = nil, cadence: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        storedElevation = elevation ?? .nan
        storedHeartRate = heartRate ?? .nan
        storedCadence = cadence ?? .nan
    }

    /// Field by field, absent equal to absent (as the synthesised `==` of optionals was).
    public static func == (a: TrackPoint, b: TrackPoint) -> Bool {
        a.time == b.time && a.latitude == b.latitude && a.longitude == b.longitude
            && a.elevation == b.elevation && a.heartRate == b.heartRate && a.cadence == b.cadence
    }
}

/// A recorded run: fixes in recording order (not necessarily clean; see `Track.cleaned`), and
/// the device's own distance readings when it recorded them (record 0116; empty otherwise). A
/// treadmill run has readings and no fix.
public struct Track: Sendable, Equatable {
    public var points: [TrackPoint]
    /// The device's cumulative distance readings in recording order, with or without a fix at
    /// the same instant; not checked (`DeviceDistance.usable` does that).
    public var deviceDistances: [DistanceSample]
    public init(points: [TrackPoint], deviceDistances: [DistanceSample] = []) {
        self.points = points
        self.deviceDistances = deviceDistances
    }
}
