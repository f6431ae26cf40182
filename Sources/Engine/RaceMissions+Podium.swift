#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Features
import Missions

/// The podium mission (record 0652): when a race starts, each runner in it is offered "finish
/// in the first k places" (k = 1 … 3) at the chance `PodiumForecast` gives them against the
/// field that came, from every runner's race-pace estimate and finish rate.
extension RaceMissions {
    /// Spread of a runner's race time about what their form predicts on the day (terrain, GPS,
    /// weather, how the day goes), as the standard deviation of its log. A guess, to be replaced
    /// by the measured spread once the store holds enough races (record 0652).
    public static let raceDaySpread = 0.03
    /// Spread of the race-pace estimate's log about the runner's true form: with n effective
    /// runs its variance is `estimateFloor`² + `estimateSpread`² / n (fitted on simulated
    /// runners, record 0652: the floor is what more runs do not remove, such as a runner's mix
    /// of sessions and the weeks the median lags a change of form).
    public static let estimateSpread = 0.07
    public static let estimateFloor = 0.01
    /// Spread of the log time of a runner without an estimate about the field's median (5 km
    /// times of recreational runners span about ±20 %).
    public static let unknownSpread = 0.2
    /// The band a podium offer aims for (the daily band, record 0003), and the least chance at
    /// which one is offered at all (the stretch band's floor: below it a place is out of reach).
    public static let podiumBand = 0.65...0.85
    public static let podiumFloor = 0.4
    /// How long after the start podiums are still offered, seconds: later, the race's first
    /// minutes would be known to the runner but not to the forecast.
    public static let podiumOfferWindow: Seconds = 60
    /// The model version stored with a podium mission.
    public static let podiumVersion = "podium-forecast"

    /// The forecast of a runner for a race of `distance` metres starting at `start`, from
    /// `runs` (any, those before `start` are read), the runner's mission `outcomes` (the race
    /// pace leaves out runs that completed a mission of another effort, record 0654) and the
    /// chance `finish` of finishing: log of
    /// the predicted time in seconds (race pace scaled to the distance, Riegel), spread of the
    /// race day and of the estimate; nil without a race-pace estimate.
    public static func podiumRunner(runs: [RunRecord], outcomes: [PastOutcome] = [], distance: Meters, start: EpochSeconds,
                                    finish: Double) -> PodiumForecast.Runner? {
        guard distance.isFinite, distance > 0, start.isFinite, finish.isFinite,
              let evidence = RunnerState.racePaceEvidence(past: runs.filter { $0.startTime < start }, asOf: start,
                                                          outcomes: outcomes),
              evidence.effectiveRuns > 0 else { return nil }
        let pace = evidence.pace * pow(max(distance, 400) / 5000, RunnerState.riegelPaceExponent)
        let time = pace * distance / 1000
        guard time.isFinite, time > 0 else { return nil }
        let sigma = (raceDaySpread * raceDaySpread + estimateFloor * estimateFloor
                     + estimateSpread * estimateSpread / evidence.effectiveRuns).squareRoot()
        return PodiumForecast.Runner(logTime: log(time), sigma: sigma, finish: min(1, max(0, finish)))
    }

    /// The field's forecasts with the runners without an estimate (nil) put at the median of
    /// the others' log times (0 when nobody has one) with `unknownSpread`.
    static func completed(_ field: [PodiumForecast.Runner?], finish: [Double]) -> [PodiumForecast.Runner] {
        let known = field.compactMap { $0?.logTime }.sorted()
        let median = known.isEmpty ? 0 : (known[(known.count - 1) / 2] + known[known.count / 2]) / 2
        return zip(field, finish).map { runner, finish in
            runner ?? PodiumForecast.Runner(logTime: median, sigma: unknownSpread, finish: min(1, max(0, finish)))
        }
    }

    /// The place to offer from a runner's chances of the first 1, 2, … places: the one inside
    /// `podiumBand` nearest its middle, else the one nearest the band; nil when that chance is
    /// under `podiumFloor` (or not a number).
    static func podiumPlace(_ chances: [Double]) -> (place: Int, pComplete: Double)? {
        let centre = (podiumBand.lowerBound + podiumBand.upperBound) / 2
        func distance(_ p: Double) -> Double {
            podiumBand.contains(p) ? abs(p - centre) : 1 + min(abs(p - podiumBand.lowerBound), abs(p - podiumBand.upperBound))
        }
        guard let best = chances.indices.filter({ chances[$0].isFinite }).min(by: { (distance(chances[$0]), $0) < (distance(chances[$1]), $1) }),
              chances[best] >= podiumFloor else { return nil }
        return (best + 1, chances[best])
    }

    /// Offers each runner of `field` (the race's runners at its start, in any order) a podium
    /// mission for the race of `distance` metres that started at `start`, on its local day in
    /// their zone; at most one podium a day. Nothing for a field of fewer than two, or once
    /// `podiumOfferWindow` has passed since the start. Returns what it stored.
    public func offerPodiums(field: [UserID], distance: Meters, start: EpochSeconds, now: EpochSeconds) throws -> [MissionAssignment] {
        guard field.count >= 2, distance.isFinite, distance > 0, start.isFinite, now.isFinite,
              now >= start, now - start <= Self.podiumOfferWindow else { return [] }
        let lookback = Self.racePaceLookback
        var forecasts: [PodiumForecast.Runner?] = [], finishes: [Double] = []
        for user in field {
            let finish = try finishProbability(user: user, now: start)
            let runs = try store.runs(user: user, from: start - lookback, to: start).filter(\.isEvidence)
            // The missions those runs decided, as missions.today reads them (days in UTC, one
            // day wider on each side than the runs' window: outcomes outside it match no run).
            let past = try store.assignments(user: user, from: CivilDate(instant: start - lookback, utcOffset: 0).adding(days: -1),
                                             to: CivilDate(instant: start, utcOffset: 0).adding(days: 1))
            forecasts.append(Self.podiumRunner(runs: runs, outcomes: PastOutcome.from(assignments: past, runs: runs),
                                               distance: distance, start: start, finish: finish))
            finishes.append(finish)
        }
        let places = min(PodiumForecast.maxPlaces, field.count - 1)
        guard let chances = PodiumForecast.placeProbabilities(Self.completed(forecasts, finish: finishes), places: places)
        else { return [] }
        var due: [(user: UserID, day: CivilDate, place: Int, pComplete: Double)] = []
        for (i, userID) in field.enumerated() {
            guard let (place, p) = Self.podiumPlace(chances[i]), let user = try store.user(id: userID) else { continue }
            due.append((userID, user.localDay(at: start, resolver: resolver), place, p))
        }
        guard !due.isEmpty else { return [] }
        // One transaction for the field (one commit, not one per runner), under every runner's lock.
        return try store.transaction(runners: due.map(\.user)) {
            try due.compactMap { d in
                try insertInTransaction(.podium(maxPlace: d.place), pComplete: d.pComplete, version: Self.podiumVersion,
                                        user: d.user, day: d.day, now: now) { races in
                    !races.contains { $0.kind == MissionKind.podium.rawValue }
                }
            }
        }
    }

    /// How far back runs are read for a podium forecast, seconds (the race pace's window).
    static var racePaceLookback: Seconds { RunnerState.racePaceWindowDays * 86_400 }
}
