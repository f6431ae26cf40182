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

    /// `append(latitude:longitude:)` given `distance`, the `Geodesy.localDistance` in metres
    /// (≥ 0) from the previous fix (`previousLatitude`, `previousLongitude`, degrees) to this one,
    /// which a caller has already computed: when the anchor is that fix (the usual case while
    /// moving) it is the distance to the anchor bit for bit (the same function of the same
    /// numbers) and is not computed again (record 0162).
    public mutating func append(latitude: Double, longitude: Double, previousLatitude: Double, previousLongitude: Double,
                                distance: Meters) -> Meters {
        guard hasAnchor else {
            (anchorLatitude, anchorLongitude, hasAnchor) = (latitude, longitude, true)
            return 0
        }
        let anchorIsPrevious = anchorLatitude.bitPattern == previousLatitude.bitPattern
            && anchorLongitude.bitPattern == previousLongitude.bitPattern
        let d = anchorIsPrevious ? distance : Geodesy.localDistance(latitude1: anchorLatitude, longitude1: anchorLongitude,
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

    /// The filtered distance per fix, for a distance profile that follows the fixes: a chord
    /// reached within `spreadLimit` seconds of the previous anchor is shared among the steps it
    /// spans in proportion to their own lengths (so a run at 1 Hz keeps a point every second);
    /// a slower chord (one that ends a stop) goes to its last step. After the last anchor, the
    /// distance from it to the final fix (less than the radius) is added the same way, so a run
    /// does not end short. The total is the chords' total plus that remainder. Lookahead:
    /// `spreadLimit` seconds (record 0150).
    public static func spreadSteps(_ points: [TrackPoint], radius: Meters, spreadLimit: Seconds) -> [Meters] {
        var chords = steps(points, radius: radius)
        guard points.count >= 2 else { return chords }
        var anchor = 0
        let last = points.count - 1
        func share(_ chord: Meters, from a: Int, to i: Int) {
            var raw = [Meters](repeating: 0, count: i - a)
            for k in (a + 1)...i {
                raw[k - a - 1] = Geodesy.localDistance(latitude1: points[k - 1].latitude, longitude1: points[k - 1].longitude,
                                                       latitude2: points[k].latitude, longitude2: points[k].longitude)
            }
            let total = raw.reduce(0, +)
            guard i - a > 1, total > 0, points[i].time - points[a].time <= spreadLimit else { chords[i] = chord; return }
            for k in (a + 1)...i { chords[k] = chord * raw[k - a - 1] / total }
        }
        for i in 1...last where chords[i] > 0 {
            share(chords[i], from: anchor, to: i)
            anchor = i
        }
        if anchor < last {
            let rest = Geodesy.localDistance(latitude1: points[anchor].latitude, longitude1: points[anchor].longitude,
                                             latitude2: points[last].latitude, longitude2: points[last].longitude)
            share(rest, from: anchor, to: last)
        }
        return chords
    }
}
