import RunusCore
import Missions

extension MissionFeatures {
    /// Terms added with schema v14 (record 0664): the runner's own record on the kind offered, as
    /// log odds. The completion rate of schema v2 enters a logistic model linearly, so a runner
    /// who completes a kind 5 % of the time and one at 20 % differ by 0.15 × its weight; in log
    /// odds they differ by 1.6 × its weight, which is the scale the model's output lives on: with
    /// a weight of 1 and nothing else, the forecast would be the runner's own rate.
    static let schemaV14MissionFeatures: [Feature] = [
        feature("past_log_odds_kind", "log odds",
                "log((completed + 1) / (tried − completed + 1)) of the runner's missions of this kind decided by runs "
                  + "in the 90 days before the offer: the log odds of `past_completion_rate_kind`",
                missing: "0 without outcomes") { spec, state in
            state.completionLogOdds(spec.kind)
        },
    ]
}
