import RunusCore

extension Track {
    /// The track with impossible fixes removed (record 0101):
    /// - fixes with a non-finite value, a latitude outside [-90, 90], or a time not after the
    ///   last kept fix are dropped;
    /// - a *spike* is dropped: a fix reached faster than `configuration.maxSpeed` from the last
    ///   kept fix and left faster than that to the next fix, while going straight from the last
    ///   kept fix to the next one is plausible. Sustained fast motion (a car) is not a spike and
    ///   is kept, for the vehicle rule to remove (record 0106); judging a fix by its neighbours
    ///   on both sides means one bad fix never anchors the rest of the track.
    public func cleaned(configuration: MetricsConfiguration = .default) -> Track {
        var valid: [TrackPoint] = []
        valid.reserveCapacity(points.count)
        for p in points {
            guard p.time.isFinite, p.latitude.isFinite, p.longitude.isFinite,
                  abs(p.latitude) <= 90 else { continue }
            if let last = valid.last, p.time <= last.time { continue }
            valid.append(p)
        }
        func speed(_ a: TrackPoint, _ b: TrackPoint) -> Double {
            Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                  latitude2: b.latitude, longitude2: b.longitude) / (b.time - a.time)
        }
        // A first fix that jumps to a second one, from which the track goes on plausibly, is a
        // leading spike (a cold-start fix): it would otherwise vouch for itself.
        if valid.count >= 3, speed(valid[0], valid[1]) > configuration.maxSpeed,
           speed(valid[1], valid[2]) <= configuration.maxSpeed {
            valid.removeFirst()
        }
        var kept: [TrackPoint] = []
        kept.reserveCapacity(valid.count)
        for (i, p) in valid.enumerated() {
            guard let last = kept.last else { kept.append(p); continue }
            if speed(last, p) > configuration.maxSpeed {
                if i + 1 < valid.count {
                    let next = valid[i + 1]
                    if speed(p, next) > configuration.maxSpeed && speed(last, next) <= configuration.maxSpeed { continue }
                } else {
                    continue  // a final fix that jumps away has no neighbour to vouch for it
                }
            }
            kept.append(p)
        }
        return Track(points: kept)
    }
}
