import RunusCore
import Features
import Missions

extension CandidateGenerator {
    /// Multiples of the distance the rest of the week is expected to add
    /// (`WeeklyVolumeForecast.expectedRest`) for week-long weekly-volume targets (record 0655):
    /// the sum of a week's runs is near its mean half the time, so the band's 0.65–0.85 sits
    /// around 0.6–0.85 of it, and the stretch's 0.4–0.5 around 1.
    static let weekVolumeLadder: [Double] = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.15, 1.3]

    /// Weekly volumes the daily policy offers for the rest of the week (record 0655): the week's
    /// distance so far plus a rung of `weekVolumeLadder` times what the rest of the week is
    /// expected to add, in whole kilometres, at least a kilometre more than the week has; none
    /// while the record is too short to forecast (`WeeklyVolumeForecast.isForecast`).
    static func addWeekVolumes(state: RunnerState, _ add: (MissionSpec) -> Void) {
        for spec in weekVolumes(for: state) { add(spec) }
    }

    /// The week-long weekly volumes `addWeekVolumes` adds, easy to hard.
    public static func weekVolumes(for state: RunnerState) -> [MissionSpec] {
        var out: [MissionSpec] = []
        guard let rest = WeeklyVolumeForecast.expectedRest(state), rest.isFinite, rest > 0 else { return [] }
        let floor = state.volumeThisWeek + 1000
        for m in weekVolumeLadder {
            let total = ((state.volumeThisWeek + m * rest) / 1000).rounded() * 1000
            let spec = MissionSpec.weeklyVolume(distance: total)
            if total >= floor && !out.contains(spec) { out.append(spec) }
        }
        return out
    }
}
