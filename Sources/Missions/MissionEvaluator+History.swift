import RunusCore
import Tracking

extension MissionEvaluator {
    /// Days back from a run's start in which earlier runs count as "recent" for long runs.
    public static let longRunWindowDays = 28
    /// Local hour before which a start counts as the previous night (record 0213): a 01:00 run
    /// is a night owl's, not an early bird's.
    public static let nightEndsAtMinute = 180

    /// Whether a run starting `minute` minutes after local midnight (0 ..< 1440) starts in the
    /// window an early-bird or night-owl mission asks for: an early bird from `nightEndsAtMinute`
    /// up to (not at) its minute, a night owl from its minute to `nightEndsAtMinute` the next
    /// morning. Nil for kinds without a start window.
    public static func startFits(_ spec: MissionSpec, minute: Int) -> Bool? {
        switch spec {
        case .earlyBird(let before, _): return minute >= nightEndsAtMinute && minute < before
        case .nightOwl(let after, _): return minute >= after || minute < nightEndsAtMinute
        default: return nil
        }
    }

    /// Kinds that compare the run with the runner's history or the clock. Returns the reason
    /// when the context does not allow a verdict (the caller answers `notApplicable`).
    static func checkHistory(_ spec: MissionSpec, metrics: RunMetrics, context: MissionContext,
                             tolerance: MissionTolerance, _ v: inout Verdict) -> String? {
        let start = metrics.startTime
        let prior = context.priorRuns.filter { $0.start < start }
        switch spec {
        case .longRun(let multiple):
            let windowStart = start - Double(longRunWindowDays) * 86_400
            guard let longest = prior.filter({ $0.start >= windowStart }).max(by: { $0.distance < $1.distance }),
                  longest.distance > 0 else {
                return "no run in the \(longRunWindowDays) days before to compare with"
            }
            let target = multiple * longest.distance
            let accepted = target * tolerance.distanceFraction
            let day = CivilDate(instant: longest.start, utcOffset: longest.utcOffset)
            v.add(metrics.distance / accepted,
                  "ran \(km(metrics.distance)); longest of the last \(longRunWindowDays) days \(km(longest.distance)) on \(day), "
                    + "so \(km(target)) asked (\(km(accepted)) accepted)",
                  MissionEvidence(.total, from: 0, to: metrics.distance, value: metrics.distance, unit: "m",
                                  passed: metrics.distance >= accepted))

        case .earlyBird(let before, let minDistance), .nightOwl(let before, let minDistance):
            guard let offset = context.utcOffset else { return "the runner's UTC offset is unknown" }
            let local = Int(saturating: (start + Double(offset)).rounded(.down))
            let minute = ((local % 86_400 + 86_400) % 86_400) / 60
            let ok = startFits(spec, minute: minute) ?? false
            _ = distanceCheck(minDistance, metrics, tolerance, &v)
            let clock = MissionTitle.clock(minute)
            v.add(ok ? 1 : 0, "started at \(clock) local time (\(spec.kind == .earlyBird ? "before" : "from") "
                    + "\(MissionTitle.clock(before)) asked)",
                  MissionEvidence(.start, value: Double(minute), unit: "min after local midnight", passed: ok))

        case .streak(let days):
            guard let offset = context.utcOffset else { return "the runner's UTC offset is unknown" }
            let today = CivilDate(instant: start, utcOffset: offset).daysSinceEpoch
            var distanceByDay: [Int: Meters] = [today: metrics.distance]
            for r in prior {
                distanceByDay[CivilDate(instant: r.start, utcOffset: r.utcOffset).daysSinceEpoch, default: 0] += r.distance
            }
            var length = 0
            while length < days, let d = distanceByDay[today - length] {
                v.details.append(MissionEvidence(.day, index: length + 1, value: d, unit: "m", passed: true))
                length += 1
            }
            v.count = MissionCount(done: length, target: days, unit: "days")
            let first = CivilDate(daysSinceEpoch: today - length + 1)
            v.add(Double(length) / Double(days),
                  "\(length) day\(length == 1 ? "" : "s") in a row with a run (\(first) to \(CivilDate(daysSinceEpoch: today))), \(days) asked")

        case .weeklyVolume(let target):
            guard let offset = context.utcOffset else { return "the runner's UTC offset is unknown" }
            let day = CivilDate(instant: start, utcOffset: offset)
            let monday = day.daysSinceEpoch - (day.isoWeekday - 1)
            var total = metrics.distance
            var index = 0
            for r in prior.sorted(by: { $0.start < $1.start }) {
                let d = CivilDate(instant: r.start, utcOffset: r.utcOffset).daysSinceEpoch
                guard d >= monday && d <= day.daysSinceEpoch else { continue }
                index += 1
                total += r.distance
                v.details.append(MissionEvidence(.day, index: index, value: r.distance, unit: "m", passed: true))
            }
            v.details.append(MissionEvidence(.day, index: index + 1, from: 0, to: metrics.distance,
                                             value: metrics.distance, unit: "m", passed: true))
            let accepted = target * tolerance.distanceFraction
            v.add(total / accepted,
                  "\(km(total)) in the week from \(CivilDate(daysSinceEpoch: monday)) over \(index + 1) run\(index == 0 ? "" : "s") "
                    + "(\(km(target)) asked, \(km(accepted)) accepted)",
                  MissionEvidence(.week, value: total, unit: "m", passed: total >= accepted))

        case .personalBest(let distance):
            guard let best = prior.compactMap({ r in r.bestEfforts[distance].map { (r, $0) } }).min(by: { $0.1 < $1.1 }) else {
                return "no earlier effort over \(MissionTitle.metres(distance)) to beat"
            }
            let bestDay = CivilDate(instant: best.0.start, utcOffset: best.0.utcOffset)
            // A record is a record: no tolerance, strictly faster (record 0211).
            guard let now = metrics.profile.fastestDuration(covering: distance) else {
                v.add(metrics.distance / distance * failedProgressCap,
                      "ran \(km(metrics.distance)), short of the \(MissionTitle.metres(distance)) to beat "
                        + "\(DistanceFormat.duration(best.1)) (\(bestDay))")
                return nil
            }
            v.add(now < best.1 ? 1 : best.1 / now * failedProgressCap,
                  "fastest \(MissionTitle.metres(distance)) in \(DistanceFormat.duration(now)); best before "
                    + "\(DistanceFormat.duration(best.1)) on \(bestDay)",
                  MissionEvidence(.effort, value: now, unit: "s", passed: now < best.1))
        default:
            preconditionFailure("checkHistory: \(spec.kind.rawValue) is not a history kind")
        }
        return nil
    }

    /// Recovery: moving pace at `minPace` or slower (the pace slack forgives a slightly faster
    /// reading), moving time, and the average heart rate under the cap when one is asked.
    static func checkRecovery(minPace: SecondsPerKm, minDuration: Seconds, maxHeartRate: Double?,
                              metrics: RunMetrics, tolerance: MissionTolerance, _ v: inout Verdict) -> String? {
        if maxHeartRate != nil && metrics.averageHeartRate == nil { return "the run has no heart rate to check the cap" }
        let accepted = minDuration * tolerance.durationFraction
        v.add(metrics.moving / accepted,
              "moved for \(DistanceFormat.duration(metrics.moving)) of \(DistanceFormat.duration(minDuration))",
              MissionEvidence(.total, value: metrics.moving, unit: "s", passed: metrics.moving >= accepted))
        let floor = minPace - tolerance.paceSlack
        if let pace = metrics.movingPace {
            v.add(pace >= floor ? 1 : pace / floor,
                  "moving pace \(Pace.format(pace))/km (\(Pace.format(minPace))/km or slower asked)",
                  MissionEvidence(.effort, value: pace, unit: "s/km", passed: pace >= floor))
        } else {
            v.add(0, "no moving distance")
        }
        if let cap = maxHeartRate, let hr = metrics.averageHeartRate {
            v.add(hr <= cap ? 1 : cap / hr, "average heart rate \(Int(saturating: hr.rounded())) bpm (cap \(Int(saturating: cap.rounded())))",
                  MissionEvidence(.total, value: hr, unit: "bpm", passed: hr <= cap))
        }
        return nil
    }

    /// Race finish and podium, decided by the race result (distances are the race's own, exact).
    static func evaluateRace(_ spec: MissionSpec, metrics: RunMetrics, race: RaceResult?,
                             tolerance: MissionTolerance) -> MissionEvaluation {
        guard let race else { return notApplicable("the run was not part of a race") }
        var v = Verdict()
        let covered = min(1, metrics.distance / race.distance)
        let finish = race.finished ? 1 : covered * failedProgressCap
        let sentence = race.finished
            ? "finished a \(km(race.distance)) race" + (race.place.map { " in place \($0) of \(race.participants)" } ?? "")
            : "did not finish the \(km(race.distance)) race (\(km(metrics.distance)) run)"
        switch spec {
        case .raceFinish(let minDistance):
            v.add(finish, sentence, MissionEvidence(.race, value: race.place.map(Double.init) ?? 0, unit: "place",
                                                    passed: race.finished))
            v.add(race.distance >= minDistance ? 1 : race.distance / minDistance,
                  "race distance \(km(race.distance)) (\(km(minDistance)) or more asked)")
        case .podium(let maxPlace):
            let place = race.place ?? race.participants
            v.add(min(finish, place <= maxPlace ? 1 : Double(maxPlace) / Double(place)), sentence,
                  MissionEvidence(.race, value: Double(place), unit: "place", passed: race.finished && place <= maxPlace))
            // Beating nobody is no podium (record 0213).
            v.add(race.participants >= 2 ? 1 : 0, "\(race.participants) runner\(race.participants == 1 ? "" : "s") in the race")
        default:
            preconditionFailure("evaluateRace: \(spec.kind.rawValue) is not a race kind")
        }
        return v.evaluation
    }
}
