import RunusCore

/// What every store does with a run it reads (`RunStore`): the run as
/// `RunRecord.checkedForReading` lets the engine see it, or nil; repairs and skips are logged
/// with the run's key, so that an operator can find the row.
public enum StoredRunCheck {
    public static func checked(_ run: RunRecord, log: (String) -> Void) -> RunRecord? {
        switch run.checkedForReading() {
        case .valid(let run): return run
        case .repaired(let repaired, let reason):
            warn("stored_run_repaired", run, reason, log)
            return repaired
        case .skipped(let reason):
            warn("stored_run_skipped", run, reason, log)
            return nil
        }
    }

    private static func warn(_ event: String, _ run: RunRecord, _ reason: String, _ log: (String) -> Void) {
        log(JSONWriter.string([
            "level": "warn", "event": .string(event), "user": .string(run.userID), "run_id": .string(run.id),
            "reason": .string(reason),
        ]))
    }
}
