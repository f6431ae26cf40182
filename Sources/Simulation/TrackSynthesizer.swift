import RunusCore
import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// Turns a run plan into a GPS track as a phone would record it: sampled every 1–5 s, with
/// correlated positional noise of a few metres, elevation from a smooth terrain plus barometric
/// noise, stops at crossings, occasional dropouts, and a drive before the run when planned.
///
/// Positions are computed in a local east/north frame around the city centre (metres) and
/// converted to degrees with the WGS84 radii of curvature at that latitude; routes stay within
/// ~20 km, where the flat-frame error is far below the GPS noise.
struct TrackSynthesizer {
    let traits: RunnerTraits

    /// AR(1) coefficient of the positional noise per second. Receivers filter their fixes, so
    /// the error drifts slowly: with 0.99 the step-to-step jitter at 1 Hz is 0.14 σ, which
    /// lengthens a 1 Hz track by about 1 % (watches differ from the truth by 1–5 %).
    static let noiseCorrelationPerSecond = 0.99
    /// Probability of a stop at each kilometre (a crossing), and its duration range in seconds.
    static let stopProbabilityPerKm = 0.12
    static let stopDuration: ClosedRange<Double> = 10...45
    /// Probability that a run has one signal dropout, and its duration range in seconds.
    static let dropoutProbability = 0.08
    static let dropoutDuration: ClosedRange<Double> = 20...90
    /// Relief kept on a flat route (`RunPlan.flatTerrain`), fraction of the terrain's.
    static let flatTerrainScale = 0.1
    /// Height of one hill repeat at most, metres.
    static let maxRepeatHeight: Meters = 20

    func track(plan: RunPlan, start: EpochSeconds, rng: inout SeededGenerator) -> Track {
        let lat0 = traits.home.latitude * .pi / 180
        // WGS84 radii of curvature (metres) at the city's latitude.
        let a = 6_378_137.0, e2 = 0.006_694_379_990_14
        let w = (1 - e2 * sin(lat0) * sin(lat0)).squareRoot()
        let meridianRadius = a * (1 - e2) / (w * w * w)
        let primeVerticalRadius = a / w
        let dt = traits.samplingInterval

        var x = traits.homeOffset.east + (plan.origin?.east ?? 0), y = traits.homeOffset.north + (plan.origin?.north ?? 0)
        var heading = rng.uniform(0, 2 * .pi)
        let runDistance = plan.legs.filter { $0.mode != .drive }.reduce(0) { $0 + $1.distance }
        let drawnLoop = rng.bernoulli(0.7)
        let loop = plan.route == .usual ? drawnLoop : plan.route == .closedLoop
        // Where the run on foot starts (after a drive), for a loop steered back to it.
        var footStart: (x: Meters, y: Meters)? = nil
        let phi = pow(Self.noiseCorrelationPerSecond, dt)
        let innovation = traits.gpsNoise * (1 - phi * phi).squareRoot()
        var noiseX = rng.gaussian() * traits.gpsNoise, noiseY = rng.gaussian() * traits.gpsNoise
        var noiseZ = rng.gaussian() * 1.5
        var paceWobble = 0.0
        var t = start
        var covered: Meters = 0       // on foot, along the route
        var points: [TrackPoint] = []
        points.reserveCapacity(Int(runDistance / 2.5 / dt) + 64)

        let dropoutAt: Meters? = rng.bernoulli(Self.dropoutProbability) ? rng.uniform(0.2, 0.8) * runDistance : nil
        var dropoutLeft: Seconds = 0
        var nextKm: Meters = 1000
        // Hill repeats (`Leg.climb`): a triangle wave over the leg, at most `maxRepeatHeight` each.
        let terrainScale = plan.flatTerrain ? Self.flatTerrainScale : 1
        var hill: Meters = 0

        func emit() {
            if dropoutLeft > 0 { dropoutLeft -= dt; return }
            let lat = traits.home.latitude + (y + noiseY) / meridianRadius * 180 / .pi
            let lon = traits.home.longitude + (x + noiseX) / (primeVerticalRadius * cos(lat0)) * 180 / .pi
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon,
                                     elevation: ((terrainScale * terrain(x, y) + hill + noiseZ) * 10).rounded() / 10))
        }
        func advanceNoise() {
            noiseX = phi * noiseX + innovation * rng.gaussian()
            noiseY = phi * noiseY + innovation * rng.gaussian()
            noiseZ = phi * noiseZ + 0.4 * rng.gaussian()
        }

        for leg in plan.legs {
            var legLeft = leg.distance
            let repeats = max(1, (leg.climb / Self.maxRepeatHeight).rounded(.up))
            let period = leg.distance / repeats
            while legLeft > 0 {
                if leg.climb > 0 {
                    let phase = (leg.distance - legLeft).truncatingRemainder(dividingBy: period) / period
                    hill = leg.climb / repeats * 2 * (phase < 0.5 ? phase : 1 - phase)
                }
                emit()
                advanceNoise()
                let speed: Double
                switch leg.mode {
                case .drive:
                    speed = rng.uniform(8, 14)
                    heading += rng.gaussian(mean: 0, sd: 0.05)
                case .run, .walk:
                    paceWobble = 0.9 * paceWobble + 0.01 * rng.gaussian()
                    speed = 1000 / leg.pace * (1 + paceWobble)
                }
                let step = min(legLeft, speed * dt)
                if leg.mode != .drive {
                    if footStart == nil { footStart = (x, y) }
                    if loop {
                        heading += 2 * .pi * step / runDistance + rng.gaussian(mean: 0, sd: 0.03)
                        // A closed loop heads for its start once what is left is little more
                        // than the way back (it then arrives with the last metres).
                        if plan.route == .closedLoop, let s = footStart {
                            let dx = s.x - x, dy = s.y - y
                            let back = (dx * dx + dy * dy).squareRoot()
                            if runDistance - covered <= 1.15 * back + 1 { heading = atan2(dx, dy) }
                        }
                    } else if plan.route == .oneWay {
                        heading += rng.gaussian(mean: 0, sd: 0.03)
                    } else {
                        heading += rng.gaussian(mean: 0, sd: 0.03)
                        if covered < runDistance / 2, covered + step >= runDistance / 2 { heading += .pi }
                    }
                    covered += step
                }
                x += step * sin(heading)
                y += step * cos(heading)
                legLeft -= step
                t += dt
                if let at = dropoutAt, leg.mode != .drive, covered >= at, covered - step < at {
                    dropoutLeft = rng.uniform(Self.dropoutDuration.lowerBound, Self.dropoutDuration.upperBound)
                }
                if leg.mode != .drive, covered >= nextKm {
                    nextKm += 1000
                    if !plan.noStops, legLeft > 200, rng.bernoulli(Self.stopProbabilityPerKm) {
                        var stopLeft = rng.uniform(Self.stopDuration.lowerBound, Self.stopDuration.upperBound)
                        while stopLeft > 0 {
                            emit(); advanceNoise()
                            t += dt; stopLeft -= dt
                        }
                    }
                }
            }
        }
        emit()
        return Track(points: points)
    }

    /// Smooth terrain elevation at a local position, metres above sea level.
    func terrain(_ x: Meters, _ y: Meters) -> Meters {
        let (p1, p2, p3) = traits.terrainPhase
        let a = traits.terrainAmplitude
        return traits.home.baseElevation
            + a * sin(x / 700 + p1) * cos(y / 900 + p2)
            + 0.3 * a * sin((x + y) / 260 + p3)
    }
}
