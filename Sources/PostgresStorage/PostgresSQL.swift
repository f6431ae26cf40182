/// Every statement `PostgresStore` runs, with its parameter types, in one place: constant
/// text built once from constant column lists; values only ever travel as bound `$n`
/// parameters. Same statements as SQLite's `StoreSQL`, in PostgreSQL's dialect.
enum PostgresSQL {
    // MARK: users
    static let userColumns = "id, birth_year, sex, height_cm, weight_kg, time_zone, utc_offset_s, display_name"
    static let upsertUser = PGQuery("""
        INSERT INTO users (\(userColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (id) DO UPDATE SET birth_year = excluded.birth_year, sex = excluded.sex,
            height_cm = excluded.height_cm, weight_kg = excluded.weight_kg,
            time_zone = excluded.time_zone, utc_offset_s = excluded.utc_offset_s,
            display_name = excluded.display_name
        """, [.text, .int8, .text, .float8, .float8, .text, .int8, .text])
    /// Every record of a runner, children first (the foreign keys are deferred, but a user row
    /// must not outlive nor be outlived by what references it).
    /// A runner's race rows go too; races they hosted stay for the others, without a host.
    static let deleteUser = [
        "DELETE FROM ingest_answers WHERE user_id = $1",
        "DELETE FROM race_holds WHERE user_id = $1",
        "DELETE FROM race_results WHERE user_id = $1",
        "DELETE FROM race_entries WHERE user_id = $1",
        "UPDATE races SET created_by = '' WHERE created_by = $1",
        "DELETE FROM badges WHERE user_id = $1",
        "DELETE FROM rewards WHERE user_id = $1",
        "DELETE FROM mission_assignments WHERE user_id = $1",
        "DELETE FROM run_digests WHERE user_id = $1",
        "DELETE FROM runs WHERE user_id = $1",
        "DELETE FROM users WHERE id = $1",
        // Last: the deletes above bumped it. Numbers come from one sequence, so a runner made
        // again under the same id never meets a generation a cache kept from before.
        "DELETE FROM user_generations WHERE user_id = $1",
    ].map { PGQuery($0, [.text]) }
    /// The number the triggers of schema version 3 change at every write to a runner's profile,
    /// runs or missions (record 0541); no row: 0.
    static let userGeneration = PGQuery("SELECT generation FROM user_generations WHERE user_id = $1", [.text])
    /// The generations of a round's runners in one read (record 0545); runners without a row
    /// are absent (their generation is 0).
    static let userGenerations = PGQuery("SELECT user_id, generation FROM user_generations WHERE user_id = ANY($1)",
                                         [.textArray])
    /// A runner's transaction lock (record 0542): the two-key advisory lock space, class
    /// "RUNR", keyed by the id's hash (two runners whose ids collide only wait for each other).
    static let lockRunner = PGQuery("SELECT pg_advisory_xact_lock(1381322322, hashtext($1))", [.text])
    /// The race-creation lock (record 0541's caps): the two-key advisory lock space, class
    /// "RACE", key 0. One per database.
    static let lockRaceCreation = PGQuery("SELECT pg_advisory_xact_lock(1380008773, 0)")
    static let userByID = PGQuery("SELECT \(userColumns) FROM users WHERE id = $1", [.text])
    static let allUsers = PGQuery("SELECT \(userColumns) FROM users ORDER BY id")

    // MARK: runs
    /// Digests of stored runs (record 0648), kept only while their run is: the batch comes as
    /// one JSON parameter (bytes in hex), and a digest without its run is skipped by the join.
    static let runDigests = PGQuery("SELECT run_id, start_time, distance_m, digest FROM run_digests WHERE user_id = $1", [.text])
    static let storeRunDigests = PGQuery("""
        INSERT INTO run_digests (user_id, run_id, start_time, distance_m, digest)
        SELECT d.u, d.r, d.s, d.m, decode(d.b, 'hex')
        FROM json_to_recordset($1::json) AS d(u text, r text, s double precision, m double precision, b text)
        JOIN runs ON runs.user_id = d.u COLLATE "C" AND runs.id = d.r COLLATE "C"
        ON CONFLICT (user_id, run_id) DO UPDATE
        SET start_time = excluded.start_time, distance_m = excluded.distance_m, digest = excluded.digest
        """, [.text])
    /// Columns of a run without its track, in the order `PostgresStore.run(from:at:track:)` reads them.
    static let runSummaryColumns =
        "user_id, id, start_time, distance_m, elapsed_s, moving_s, elevation_gain_m, calories_kcal, source, rewarded, unrewarded_reason"
    static let insertRun = PGQuery("""
        INSERT INTO runs (\(runSummaryColumns), track) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        ON CONFLICT (user_id, id) DO NOTHING
        """, [.text, .text, .float8, .float8, .float8, .float8, .float8, .float8, .text, .bool, .text, .bytea])
    static let runByID = PGQuery("SELECT \(runSummaryColumns), track FROM runs WHERE user_id = $1 AND id = $2", [.text, .text])
    static let runsInRange = PGQuery("""
        SELECT \(runSummaryColumns) FROM runs
        WHERE user_id = $1 AND start_time >= $2 AND start_time < $3 ORDER BY start_time, id
        """, [.text, .float8, .float8])
    static let allRuns = PGQuery("SELECT \(runSummaryColumns) FROM runs WHERE user_id = $1 ORDER BY start_time, id", [.text])
    static let storedRuns = PGQuery(
        "SELECT \(runSummaryColumns), track FROM runs WHERE user_id = $1 ORDER BY start_time, id", [.text])

    // MARK: mission_assignments
    static let assignmentColumns = """
        id, user_id, day, kind, spec_json, model_version, p_complete, xp, status, run_id, progress, \
        p_true, offered_at
        """
    static let insertAssignment = PGQuery("""
        INSERT INTO mission_assignments (\(assignmentColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
        """, [.text, .text, .text, .text, .text, .text, .float8, .int8, .text, .text, .float8, .float8, .float8])
    static let updateAssignment = PGQuery(
        "UPDATE mission_assignments SET status = $1, run_id = $2, progress = $3 WHERE user_id = $4 AND id = $5",
        [.text, .text, .float8, .text, .text])
    static let assignmentsOfDay = PGQuery("""
        SELECT \(assignmentColumns) FROM mission_assignments WHERE user_id = $1 AND day = $2 ORDER BY seq
        """, [.text, .text])
    static let assignmentsInRange = PGQuery("""
        SELECT \(assignmentColumns) FROM mission_assignments
        WHERE user_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, seq
        """, [.text, .text, .text])
    static let decidedAssignments = PGQuery("""
        SELECT \(assignmentColumns) FROM mission_assignments
        WHERE status IN ('completed', 'failed') ORDER BY offered_at, id, user_id
        """)
    static let storedAssignments = PGQuery(
        "SELECT \(assignmentColumns) FROM mission_assignments WHERE user_id = $1 ORDER BY seq", [.text])

    // MARK: rewards
    static let insertReward = PGQuery(
        "INSERT INTO rewards (id, user_id, time, xp, reason, ref_id) VALUES ($1, $2, $3, $4, $5, $6)",
        [.text, .text, .float8, .int8, .text, .text])
    static let rewardsOfUser = PGQuery(
        "SELECT id, user_id, time, xp, reason, ref_id FROM rewards WHERE user_id = $1 ORDER BY time, id", [.text])

    // MARK: badges
    static let insertBadge = PGQuery("""
        INSERT INTO badges (user_id, badge_id, awarded_at, run_id) VALUES ($1, $2, $3, $4)
        ON CONFLICT (user_id, badge_id) DO NOTHING
        """, [.text, .text, .float8, .text])
    static let badgesOfUser = PGQuery("""
        SELECT user_id, badge_id, awarded_at, run_id FROM badges WHERE user_id = $1 ORDER BY awarded_at, badge_id
        """, [.text])

    // MARK: ingest_answers
    static let insertIngestAnswer = PGQuery(
        "INSERT INTO ingest_answers (user_id, run_id, answer_json) VALUES ($1, $2, $3)", [.text, .text, .text])
    static let ingestAnswer = PGQuery("SELECT answer_json FROM ingest_answers WHERE user_id = $1 AND run_id = $2", [.text, .text])
    static let ingestAnswersOfUser = PGQuery(
        "SELECT run_id, answer_json FROM ingest_answers WHERE user_id = $1 ORDER BY run_id", [.text])

    // MARK: counts and totals
    static let userCount = PGQuery("SELECT count(*) FROM users")
    static let runCount = PGQuery("SELECT count(*) FROM runs")
    static let assignmentCount = PGQuery("SELECT count(*) FROM mission_assignments")
    static let rewardCount = PGQuery("SELECT count(*) FROM rewards")
    /// Sums of bigint columns are numeric in PostgreSQL: cast back (a sum past 2^63 fails
    /// loudly instead of wrapping).
    static let totals = PGQuery("""
        SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM runs), (SELECT count(track) FROM runs),
            (SELECT coalesce(sum(octet_length(track)), 0)::bigint FROM runs),
            (SELECT coalesce(sum(distance_m), 0)::double precision FROM runs),
            (SELECT count(*) FROM mission_assignments),
            (SELECT count(*) FROM mission_assignments WHERE status = 'completed'),
            (SELECT count(*) FROM rewards), (SELECT coalesce(sum(xp), 0)::bigint FROM rewards),
            (SELECT count(*) FROM badges), (SELECT count(*) FROM ingest_answers),
            (SELECT count(*) FROM races), (SELECT count(*) FROM race_entries), (SELECT count(*) FROM race_results)
        """)
    /// Children first, as `deleteUser`.
    static let removeAll = [
        "DELETE FROM race_holds", "DELETE FROM race_results", "DELETE FROM race_entries", "DELETE FROM races",
        "DELETE FROM ingest_answers", "DELETE FROM badges", "DELETE FROM rewards",
        "DELETE FROM mission_assignments", "DELETE FROM run_digests", "DELETE FROM runs", "DELETE FROM users",
        "DELETE FROM user_generations",
    ].map { PGQuery($0) }

    // MARK: races (record 0526)
    static let raceColumns = "id, name, distance_m, start_time, capacity, public, created_by, invite_sha256, created_at, cancelled_at"
    static let insertRace = PGQuery("INSERT INTO races (\(raceColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                                    [.text, .text, .float8, .float8, .int8, .bool, .text, .text, .float8, .float8])
    static let cancelRace = PGQuery("UPDATE races SET cancelled_at = $1 WHERE id = $2 AND cancelled_at IS NULL", [.float8, .text])
    static let activeRaces = PGQuery("""
        SELECT \(raceColumns) FROM races WHERE cancelled_at IS NULL AND start_time >= $1 ORDER BY start_time, id
        """, [.float8])
    static let racesOfUser = PGQuery("""
        SELECT \(raceColumns) FROM races WHERE id IN (SELECT race_id FROM race_entries WHERE user_id = $1)
        ORDER BY start_time, id
        """, [.text])
    static let allRaces = PGQuery("SELECT \(raceColumns) FROM races ORDER BY start_time, id")
    static let insertEntry = PGQuery("""
        INSERT INTO race_entries (race_id, seq, kind, user_id, token_sha256, time, points) VALUES ($1, $2, $3, $4, $5, $6, $7)
        """, [.text, .int8, .text, .text, .text, .float8, .bytea])
    static let entries = PGQuery("""
        SELECT race_id, seq, kind, user_id, token_sha256, time, points FROM race_entries WHERE race_id = $1 ORDER BY seq
        """, [.text])
    // Replicas (record 0541).
    static let race = PGQuery("SELECT \(raceColumns) FROM races WHERE id = $1", [.text])
    /// A command appended at the end of its race's log, and the entries after a seq (schema
    /// version 4, record 0543).
    static let appendAtEnd = PGQuery("""
        SELECT race_id, seq, kind, user_id, token_sha256, time, points FROM runus_append_race_entry($1, $2, $3, $4, $5, $6, $7)
        """, [.text, .int8, .text, .text, .text, .float8, .bytea])
    /// The race's lock: every daemon's commands of one race take it, one after the other.
    static let lockRace = PGQuery("SELECT cancelled_at IS NOT NULL FROM races WHERE id = $1 FOR UPDATE", [.text])
    static let entriesAfter = PGQuery("""
        SELECT race_id, seq, kind, user_id, token_sha256, time, points FROM race_entries
        WHERE race_id = $1 AND seq > $2 ORDER BY seq
        """, [.text, .int8])
    /// `raceTail` of the races in a JSON array of {"id", "after"} (record 0543): per race, its
    /// id, whether it was cancelled and its entries after `after` (one row with null entry
    /// columns when there are none), by id then seq; no row for an unknown race. A LATERAL
    /// subquery behind `OFFSET 0` (which keeps the planner from flattening it), so that each
    /// race's entries come from the primary key's index: a plain join was planned as a scan of
    /// the whole log, 10 ms at 30,000 entries against 0.3 ms.
    static let raceTails = PGQuery("""
        SELECT k.id, r.cancelled_at IS NOT NULL, e.race_id, e.seq, e.kind, e.user_id, e.token_sha256, e.time, e.points
        FROM json_to_recordset($1::json) AS k(id text, after bigint)
        JOIN races r ON r.id = k.id COLLATE "C"
        LEFT JOIN LATERAL (
            SELECT * FROM race_entries x WHERE x.race_id = r.id AND x.seq > k.after ORDER BY x.seq OFFSET 0
        ) e ON true
        ORDER BY k.id COLLATE "C", e.seq
        """, [.text])
    /// Whether the race was cancelled and its entries after a seq, in one round trip: one row
    /// with null entry columns when there are none, no row for an unknown race.
    static let raceTail = PGQuery("""
        SELECT r.cancelled_at IS NOT NULL, e.race_id, e.seq, e.kind, e.user_id, e.token_sha256, e.time, e.points
        FROM races r LEFT JOIN race_entries e ON e.race_id = r.id AND e.seq > $2
        WHERE r.id = $1 ORDER BY e.seq
        """, [.text, .int8])
    static let resultColumns = """
        race_id, rank, user_id, status, distance_m, finish_time_s, elapsed_pace_s_per_km, gap_m, time_gap_s, xp, \
        badges_json, finished_at
        """
    static let insertResult = PGQuery("INSERT INTO race_results (\(resultColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                                      [.text, .int8, .text, .text, .float8, .float8, .float8, .float8, .float8, .int8, .text, .float8])
    static let results = PGQuery("SELECT \(resultColumns) FROM race_results WHERE race_id = $1 ORDER BY rank", [.text])
}
