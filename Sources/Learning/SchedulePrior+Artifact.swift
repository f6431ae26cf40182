import RunusCore

/// The `schedule_prior` object of a model artifact (record 0668):
///
///     "schedule_prior": { "usual_share": 0.85, "other_share": 0.08, "weight_days": 64 }
///
/// Written only for a prior that moves a share (weight above 0); a document without one is
/// what earlier builds wrote, and its forecasts read each runner's own record only.
extension SchedulePrior {
    /// The artifact's JSON object.
    public var jsonValue: JSONValue {
        .object(["usual_share": .number(usualShare), "other_share": .number(otherShare), "weight_days": .number(weightDays)])
    }

    /// `prior` when it moves a share, else nil: what an artifact stores.
    static func stored(_ prior: SchedulePrior?) -> SchedulePrior? {
        prior.flatMap { $0.isActive ? $0 : nil }
    }

    /// The `schedule_prior` object of `root`, nil when absent. Throws
    /// `LearningError.invalidArtifact` naming the field for a document older than
    /// `minimumVersion`, a missing or non-numeric field, or a value out of range.
    static func decodeOptional(_ root: Fields, version: Int, minimumVersion: Int) throws -> SchedulePrior? {
        guard root.members["schedule_prior"] != nil else { return nil }
        if version < minimumVersion {
            throw LearningError.invalidArtifact(field: "schedule_prior", problem: "needs format_version \(minimumVersion), the document says \(version)")
        }
        let object = try root.object("schedule_prior")
        do {
            return try SchedulePrior(usualShare: try object.number("usual_share"), otherShare: try object.number("other_share"),
                                     weightDays: try object.number("weight_days"))
        } catch let error as SchedulePrior.Invalid {
            throw LearningError.invalidArtifact(field: "schedule_prior.\(error.field)", problem: error.description)
        }
    }
}
