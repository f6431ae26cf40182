import RunusCore

/// One run uploaded twice under two ids (a phone and a watch recording the same outing) must
/// count once. The rule (docs/decisions/0231-duplicate-runs.md): a runner cannot be in two runs
/// at once, so a new run whose time span overlaps a stored run of the same runner by at least
/// `minimumOverlapFraction` of the shorter of the two is that run again.
public enum DuplicateRun {
    /// Share of the shorter run's elapsed time the two must share.
    public static let minimumOverlapFraction = 0.5

    /// Seconds `a` and `b` share, ≥ 0.
    static func overlap(_ a: RunRecord, _ b: RunRecord) -> Seconds {
        max(0, min(a.endTime, b.endTime) - max(a.startTime, b.startTime))
    }

    /// The stored run `run` duplicates: among `stored` (the runner's runs around it), the one it
    /// overlaps most, if that overlap reaches the rule's fraction; ties go to the earlier start,
    /// then the smaller id. Runs of no duration overlap a run that contains their instant.
    public static func original(of run: RunRecord, among stored: [RunRecord]) -> RunRecord? {
        var best: (run: RunRecord, overlap: Seconds)?
        for other in stored where ExactText.same(other.userID, run.userID) && !ExactText.same(other.id, run.id) {
            let shorter = min(run.elapsed, other.elapsed)
            let shared = overlap(run, other)
            let duplicate = shorter > 0
                ? shared >= minimumOverlapFraction * shorter
                : run.startTime <= other.endTime && other.startTime <= run.endTime
            guard duplicate else { continue }
            if let b = best, (b.overlap, -b.run.startTime) >= (shared, -other.startTime) { continue }
            best = (other, shared)
        }
        return best?.run
    }

    /// What the duplicate's answer says instead of rewards.
    static func unrewarded(_ original: RunRecord) -> IngestAnswer.Unrewarded {
        .init(reason: "duplicate",
              message: "This run overlaps run '\(original.id)' already recorded for you at the same time; it counts once, as that run.")
    }
}
