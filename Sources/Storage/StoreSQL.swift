/// Every SQL statement `SQLiteStore` runs, in one place. They are built once (static lets) from
/// constant column lists; values only ever reach SQLite through bound `?` parameters. Building
/// them once also keeps the per-row cost of batch inserts down (no string building and hashing
/// of a fresh key for the statement cache on every call).
enum StoreSQL {
    // MARK: users
    static let userColumns = "id, birth_year, sex, height_cm, weight_kg, time_zone, utc_offset_s, display_name"
    static let upsertUser = """
        INSERT INTO users (\(userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET birth_year = excluded.birth_year, sex = excluded.sex,
            height_cm = excluded.height_cm, weight_kg = excluded.weight_kg,
            time_zone = excluded.time_zone, utc_offset_s = excluded.utc_offset_s,
            display_name = excluded.display_name
        """
    /// Every record of a runner, children first (the foreign keys are deferred, but a user row
    /// must not outlive nor be outlived by what references it).
    static let deleteUser = [
        "DELETE FROM ingest_answers WHERE user_id = ?",
        "DELETE FROM race_holds WHERE user_id = ?",
        "DELETE FROM race_results WHERE user_id = ?",
        "DELETE FROM race_entries WHERE user_id = ?",
        "UPDATE races SET created_by = '' WHERE created_by = ?",
        "DELETE FROM badges WHERE user_id = ?",
        "DELETE FROM rewards WHERE user_id = ?",
        "DELETE FROM mission_assignments WHERE user_id = ?",
        "DELETE FROM run_digests WHERE user_id = ?",
        "DELETE FROM runs WHERE user_id = ?",
        "DELETE FROM users WHERE id = ?",
    ]
    static let userByID = "SELECT \(userColumns) FROM users WHERE id = ?"
    static let allUsers = "SELECT \(userColumns) FROM users ORDER BY id"

    // MARK: runs
    /// Columns of a run without its track, in the order `SQLiteStore.run(from:track:)` reads them.
    static let runSummaryColumns =
        "user_id, id, start_time, distance_m, elapsed_s, moving_s, elevation_gain_m, calories_kcal, source, rewarded, unrewarded_reason"
    static let insertRun = """
        INSERT INTO runs (\(runSummaryColumns), track) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(user_id, id) DO NOTHING
        """
    /// Digests of stored runs (record 0648): kept only while their run is.
    static let runDigests = "SELECT run_id, start_time, distance_m, digest FROM run_digests WHERE user_id = ?"
    static let storeRunDigest = """
        INSERT OR REPLACE INTO run_digests (user_id, run_id, start_time, distance_m, digest)
        SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM runs WHERE user_id = ?1 AND id = ?2)
        """
    static let runByID = "SELECT \(runSummaryColumns), track FROM runs WHERE user_id = ? AND id = ?"
    static let runsInRange = """
        SELECT \(runSummaryColumns) FROM runs
        WHERE user_id = ? AND start_time >= ? AND start_time < ? ORDER BY start_time, id
        """
    static let allRuns = "SELECT \(runSummaryColumns) FROM runs WHERE user_id = ? ORDER BY start_time, id"

    // MARK: mission_assignments
    static let assignmentColumns = """
        id, user_id, day, kind, spec_json, model_version, p_complete, xp, status, run_id, progress, \
        p_true, offered_at
        """
    static let insertAssignment = """
        INSERT INTO mission_assignments (\(assignmentColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let updateAssignment =
        "UPDATE mission_assignments SET status = ?, run_id = ?, progress = ? WHERE user_id = ? AND id = ?"
    static let assignmentsOfDay = """
        SELECT \(assignmentColumns) FROM mission_assignments WHERE user_id = ? AND day = ? ORDER BY seq
        """
    static let assignmentsInRange = """
        SELECT \(assignmentColumns) FROM mission_assignments
        WHERE user_id = ? AND day >= ? AND day <= ? ORDER BY day, seq
        """
    static let decidedAssignments = """
        SELECT \(assignmentColumns) FROM mission_assignments
        WHERE status IN ('completed', 'failed') ORDER BY offered_at, id, user_id
        """

    // MARK: rewards
    static let insertReward = "INSERT INTO rewards (id, user_id, time, xp, reason, ref_id) VALUES (?, ?, ?, ?, ?, ?)"
    static let rewardsOfUser =
        "SELECT id, user_id, time, xp, reason, ref_id FROM rewards WHERE user_id = ? ORDER BY time, id"

    // MARK: ingest_answers
    static let insertIngestAnswer = "INSERT INTO ingest_answers (user_id, run_id, answer_json) VALUES (?, ?, ?)"
    static let ingestAnswer = "SELECT answer_json FROM ingest_answers WHERE user_id = ? AND run_id = ?"

    // MARK: counts
    static let userCount = "SELECT COUNT(*) FROM users"
    static let runCount = "SELECT COUNT(*) FROM runs"
    static let assignmentCount = "SELECT COUNT(*) FROM mission_assignments"
    static let rewardCount = "SELECT COUNT(*) FROM rewards"
}

/// What `DatabaseStore` adds: whole-database totals and rows as stored, for `runus db copy`.
extension StoreSQL {
    static let totals = """
        SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM runs), (SELECT count(track) FROM runs),
            (SELECT coalesce(sum(length(track)), 0) FROM runs), (SELECT total(distance_m) FROM runs),
            (SELECT count(*) FROM mission_assignments),
            (SELECT count(*) FROM mission_assignments WHERE status = 'completed'),
            (SELECT count(*) FROM rewards), (SELECT coalesce(sum(xp), 0) FROM rewards),
            (SELECT count(*) FROM badges), (SELECT count(*) FROM ingest_answers),
            (SELECT count(*) FROM races), (SELECT count(*) FROM race_entries), (SELECT count(*) FROM race_results)
        """
    static let storedRuns =
        "SELECT \(runSummaryColumns), track FROM runs WHERE user_id = ? ORDER BY start_time, id"
    static let storedAssignments = "SELECT \(assignmentColumns) FROM mission_assignments WHERE user_id = ? ORDER BY seq"
    static let ingestAnswers = "SELECT run_id, answer_json FROM ingest_answers WHERE user_id = ? ORDER BY run_id"
    /// Children first, as `deleteUser`.
    static let allRaces = "SELECT \(RaceSQL.raceColumns) FROM races ORDER BY start_time, id"
    static let removeAll = [
        "DELETE FROM race_holds", "DELETE FROM race_results", "DELETE FROM race_entries", "DELETE FROM races",
        "DELETE FROM ingest_answers", "DELETE FROM badges", "DELETE FROM rewards",
        "DELETE FROM mission_assignments", "DELETE FROM run_digests", "DELETE FROM runs", "DELETE FROM users",
    ]
}
