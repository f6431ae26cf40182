import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// Pseudo-count added to each side of the share terms' log odds (Jeffreys' half a run).
    public static let startSharePseudoRuns = 0.5

    /// log((k + ½) / (n − k + ½)): the log odds of k of n recent runs having done what a mission
    /// asks, kept finite at 0 and n (the share terms of schemas v7, v9–v12); 0 for n = 0.
    static func shareLogOdds(_ k: Int, of n: Int) -> Double {
        log((Double(k) + startSharePseudoRuns) / (Double(n - k) + startSharePseudoRuns))
    }

    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentStartMinutes`, k of which
    /// started inside the window `spec` asks for (`MissionEvaluator.startFits`, the check's own
    /// rule); 0 without history or for a kind without a start window.
    static func startShareLogOdds(_ spec: MissionSpec, _ state: RunnerState) -> Double {
        let minutes = state.recentStartMinutes
        return shareLogOdds(minutes.filter { MissionEvaluator.startFits(spec, minute: $0) == true }.count, of: minutes.count)
    }

    /// Terms added with schema v7 (record 0653), zero for other kinds: how often the runner
    /// already starts inside the window asked. The usual start hour (`shift_early_bird`) is a
    /// circular mean, which says nothing of a runner who runs at 06:30 on weekdays and 10:00 on
    /// Sundays; the share of the last 20 starts that fit says it directly.
    static let schemaV7MissionFeatures: [Feature] = [
        feature("start_share_early_bird", "log odds",
                "log((k + ½) / (n − k + ½)) for `early_bird` missions, else 0, where k of the last n ≤ 20 runs "
                  + "started (local time) inside the window asked: from 03:00 to before the limit",
                missing: "0 without history") { spec, state in
            spec.kind == .earlyBird ? startShareLogOdds(spec, state) : 0
        },
        feature("start_share_night_owl", "log odds",
                "log((k + ½) / (n − k + ½)) for `night_owl` missions, else 0, where k of the last n ≤ 20 runs "
                  + "started (local time) inside the window asked: from the limit to before 03:00",
                missing: "0 without history") { spec, state in
            spec.kind == .nightOwl ? startShareLogOdds(spec, state) : 0
        },
    ]
}
