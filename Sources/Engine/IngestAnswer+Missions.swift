import RunusCore
import Missions

/// The `missions` of a `runs.ingest` answer: every mission of the run's day that was open when
/// the run arrived, with this run's verdict (record 0534).
extension IngestAnswer {
    /// What this run did for a mission.
    enum RunVerdict: String {
        /// This run completed it (and earned its XP).
        case completed
        /// Checked against this run and not completed: `progress` and the evidence say how far it got.
        case notCompleted = "not_completed"
        /// Not checked against this run (offered by a refresh or set after the run ended, a
        /// stored spec this version cannot read, or a run that lacks what the kind measures:
        /// `cannot_check`, record 0232): the evidence says why.
        case notChecked = "not_checked"
    }

    static func verdict(_ m: RunIngestion.CheckedMission) -> RunVerdict {
        m.completedNow ? .completed : m.evaluation == nil || m.evaluation?.cannotCheck != nil ? .notChecked : .notCompleted
    }

    /// {`id`, `kind`, `title`, `spec`, `stretch`, `custom`, `status` (stored, after this run),
    /// `verdict`, `progress` (this run's, 0–1, 1 only when completed), `best_progress` (the best
    /// of the day's runs so far), `count`, `evidence`, `cannot_check` (why this run cannot decide
    /// the mission: no splits, positions or heights, record 0232; null otherwise), `xp`, `xp_awarded`}.
    static func missionJSON(_ m: RunIngestion.CheckedMission) -> JSONValue {
        let a = m.assignment
        let verdict = Self.verdict(m)
        // The evaluation's own rounding keeps a near miss below 1 (MissionEvaluation.json).
        let evaluated = m.evaluation?.json
        var object: [String: JSONValue] = [
            "id": .string(a.id),
            "kind": .string(a.kind),
            "stretch": .bool(a.role == .stretch),
            "custom": .bool(a.role == .custom),
            "race": .bool(a.role == .race),
            "first_day": .string(a.day.description),
            "last_day": .string(MissionWindow.lastDay(of: a).description),
            "status": .string(a.status.rawValue),
            "verdict": .string(verdict.rawValue),
            "progress": verdict == .completed ? .number(1) : evaluated?["progress"] ?? .number(0),
            "best_progress": .number(((a.progress ?? 0) * 10_000).rounded() / 10_000),
            "count": evaluated?["count"] ?? .null,
            "evidence": .array((m.evaluation?.evidence ?? [m.note ?? "not checked"]).map { .string($0) }),
            "cannot_check": m.evaluation?.cannotCheck.map { .string($0) } ?? .null,
            "xp": .number(Double(a.xp)),
            "xp_awarded": .number(Double(m.completedNow ? a.xp : 0)),
        ]
        if let spec = m.spec {
            object["title"] = .string(MissionTitle.title(for: spec))
            object["spec"] = spec.json
        }
        return .object(object)
    }
}
