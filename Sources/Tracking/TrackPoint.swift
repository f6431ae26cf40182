import RunusCore

/// One GPS fix of a run, as recorded (before cleaning).
public struct TrackPoint: Sendable, Equatable {
    /// Instant of the fix, Unix seconds (UTC, may have a fraction).
    public var time: EpochSeconds
    /// Latitude in degrees, WGS84, in [-90, 90].
    public var latitude: Double
    /// Longitude in degrees, WGS84, in [-180, 180] (other values are wrapped by the geodesy).
    public var longitude: Double
    /// Height above the ellipsoid or sea level in metres, as the device reports it; `nil` if absent.
    public var elevation: Meters?
    /// Heart rate in beats per minute, typically 30...230; `nil` if absent.
    public var heartRate: Double?
    /// Cadence in steps per minute (both feet), typically 100...220; `nil` if absent.
    public var cadence: Double?

    public init(time: EpochSeconds, latitude: Double, longitude: Double, elevation: Meters? = nil,
                heartRate: Double? = nil, cadence: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.heartRate = heartRate
        self.cadence = cadence
    }
}

/// A recorded run: fixes in recording order (not necessarily clean; see `Track.cleaned`).
public struct Track: Sendable, Equatable {
    public var points: [TrackPoint]
    public init(points: [TrackPoint]) { self.points = points }
}
