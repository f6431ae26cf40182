import RunusCore

extension Track {
    /// The track with impossible fixes removed (thin first version, record 0101):
    /// - fixes with a non-finite value, a latitude outside [-90, 90], or a time not after the
    ///   last kept fix are dropped;
    /// - a fix that would need more than `configuration.maxSpeed` from the last kept fix is
    ///   dropped as a jump. The anchor is always the last *kept* fix, so a lone outlier costs one
    ///   fix. (A bad first fix would anchor badly; smarter outlier models come later.)
    public func cleaned(configuration: MetricsConfiguration = .default) -> Track {
        var kept: [TrackPoint] = []
        kept.reserveCapacity(points.count)
        for p in points {
            guard p.time.isFinite, p.latitude.isFinite, p.longitude.isFinite,
                  abs(p.latitude) <= 90 else { continue }
            guard let last = kept.last else { kept.append(p); continue }
            let dt = p.time - last.time
            guard dt > 0 else { continue }
            let d = Geodesy.localDistance(latitude1: last.latitude, longitude1: last.longitude,
                                          latitude2: p.latitude, longitude2: p.longitude)
            if d / dt > configuration.maxSpeed { continue }
            kept.append(p)
        }
        return Track(points: kept)
    }
}
