import RunusCore

/// Removes stationary GPS jitter from the distance of a cleaned track (record 0150), one fix at
/// a time with no lookahead, so batch metrics and a live tracker share it.
///
/// The filter keeps an *anchor*, the last fix that counted. A fix within `radius` metres of the
/// anchor adds nothing (a runner standing still: the fixes scatter around one spot); a fix
/// farther away adds its distance from the anchor and becomes the anchor. On a straight path
/// nothing is lost (the chords add up to the path); a stop loses nothing real; a run loses at
/// most `radius` metres at its very end and a little on bends tighter than the radius.
public struct JitterFilter: Sendable {
    /// Anchor radius in metres, ≥ 0 (0: every step counts, the plain sum).
    public let radius: Meters
    private var anchorLatitude = 0.0, anchorLongitude = 0.0
    private var hasAnchor = false

    public init(radius: Meters) {
        precondition(radius >= 0 && radius.isFinite, "JitterFilter: radius must be finite and >= 0, got \(radius)")
        self.radius = radius
    }

    /// Adds the next cleaned fix and returns the distance it adds, metres ≥ 0 (0 for the first).
    public mutating func append(latitude: Double, longitude: Double) -> Meters {
        guard hasAnchor else {
            (anchorLatitude, anchorLongitude, hasAnchor) = (latitude, longitude, true)
            return 0
        }
        let d = Geodesy.localDistance(latitude1: anchorLatitude, longitude1: anchorLongitude,
                                      latitude2: latitude, longitude2: longitude)
        guard d > radius else { return 0 }
        (anchorLatitude, anchorLongitude) = (latitude, longitude)
        return d
    }

    /// The distance each fix of `points` adds (element 0 is 0): the batch form of `append`.
    public static func steps(_ points: [TrackPoint], radius: Meters) -> [Meters] {
        var filter = JitterFilter(radius: radius)
        return points.map { filter.append(latitude: $0.latitude, longitude: $0.longitude) }
    }
}
