/// The database schema as an ordered list of migrations. Append new versions; never edit a
/// released one (files in the field are already at it). See docs/decisions/0402-schema-v1.md.
///
/// Conventions: units in column names (`_m`, `_s`, `_kg`, `_cm`, `_kcal`); instants
/// (`start_time`, `offered_at`, `time`) are REAL Unix seconds, UTC; local days are TEXT
/// `YYYY-MM-DD`. Tables are STRICT so a value of the wrong type is refused, not coerced.
/// Foreign keys are DEFERRABLE INITIALLY DEFERRED: inside a batch transaction rows may arrive
/// in any order, and the check happens at COMMIT.
public enum Schema {
    public static let migrations: [Migration] = [
        Migration(version: 1, sql: version1),
        Migration(version: 2, sql: version2),
        Migration(version: 3, sql: version3),
        Migration(version: 4, sql: version4),
        Migration(version: 5, sql: version5),
        Migration(version: 6, sql: version6),
        Migration(version: 7, sql: version7),
    ]

    /// The schema version this build reads and writes.
    public static var currentVersion: Int { migrations.count }

    static let version1 = """
        CREATE TABLE users (
            id TEXT PRIMARY KEY NOT NULL,
            birth_year INTEGER,
            sex TEXT,
            height_cm REAL,
            weight_kg REAL,
            time_zone TEXT NOT NULL,
            utc_offset_s INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE runs (
            id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            start_time REAL NOT NULL,
            distance_m REAL NOT NULL,
            elapsed_s REAL NOT NULL,
            moving_s REAL NOT NULL,
            elevation_gain_m REAL NOT NULL,
            calories_kcal REAL,
            source TEXT NOT NULL,
            track BLOB
        ) STRICT;
        CREATE INDEX runs_user_start ON runs(user_id, start_time);

        -- seq is the rowid alias that records insertion order ("in insertion order" in
        -- MissionStore); an explicit INTEGER PRIMARY KEY survives VACUUM, a bare rowid may not.
        CREATE TABLE mission_assignments (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            day TEXT NOT NULL,
            kind TEXT NOT NULL,
            spec_json TEXT NOT NULL,
            model_version TEXT NOT NULL,
            p_complete REAL NOT NULL,
            xp INTEGER NOT NULL,
            status TEXT NOT NULL,
            run_id TEXT REFERENCES runs(id) DEFERRABLE INITIALLY DEFERRED,
            progress REAL,
            p_true REAL,
            offered_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX mission_assignments_user_day ON mission_assignments(user_id, day);
        CREATE INDEX mission_assignments_status_offered ON mission_assignments(status, offered_at);

        CREATE TABLE rewards (
            id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            time REAL NOT NULL,
            xp INTEGER NOT NULL,
            reason TEXT NOT NULL,
            ref_id TEXT
        ) STRICT;
        CREATE INDEX rewards_user_time ON rewards(user_id, time);
        """

    /// Version 2: badges (once per runner and badge) and the answers given to ingested runs
    /// (so that sending a run again returns the same answer).
    static let version2 = """
        CREATE TABLE badges (
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            badge_id TEXT NOT NULL,
            awarded_at REAL NOT NULL,
            run_id TEXT REFERENCES runs(id) DEFERRABLE INITIALLY DEFERRED,
            PRIMARY KEY (user_id, badge_id)
        ) STRICT;

        CREATE TABLE ingest_answers (
            run_id TEXT PRIMARY KEY NOT NULL REFERENCES runs(id) DEFERRABLE INITIALLY DEFERRED,
            answer_json TEXT NOT NULL
        ) STRICT;
        """

    /// Version 3 (docs/decisions/0405-per-runner-keys.md): every per-runner record is keyed by
    /// `(user_id, id)` columns instead of a string joining them. Run ids are the runner's own
    /// (the app's client run id, `import-…`, the simulator's), unique per runner; version 2
    /// stored app and import runs as `user_id || ':' || id`, and a user `bob:2026` with run
    /// `12-01` collided with user `bob` and run `2026:12-01`. The prefix is stripped here (kept
    /// when stripping would collide with another run of the same runner) and every reference is
    /// rewritten through one map. Assignments and rewards become unique per runner; a reward is
    /// unique per `(user_id, reason, ref_id)`, the ledger invariant "awarded once". Runs gain
    /// `rewarded` and `unrewarded_reason` (docs/decisions/0230-run-plausibility.md). Ingest
    /// answers lose their foreign key: a run answered as a duplicate is not stored a second
    /// time, but its answer is.
    static let version3 = """
        ALTER TABLE ingest_answers RENAME TO ingest_answers_v2;
        ALTER TABLE badges RENAME TO badges_v2;
        ALTER TABLE rewards RENAME TO rewards_v2;
        ALTER TABLE mission_assignments RENAME TO mission_assignments_v2;
        ALTER TABLE runs RENAME TO runs_v2;
        DROP INDEX runs_user_start;
        DROP INDEX mission_assignments_user_day;
        DROP INDEX mission_assignments_status_offered;
        DROP INDEX rewards_user_time;

        CREATE TABLE runs (
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            id TEXT NOT NULL,
            start_time REAL NOT NULL,
            distance_m REAL NOT NULL,
            elapsed_s REAL NOT NULL,
            moving_s REAL NOT NULL,
            elevation_gain_m REAL NOT NULL,
            calories_kcal REAL,
            source TEXT NOT NULL,
            track BLOB,
            rewarded INTEGER NOT NULL DEFAULT 1 CHECK (rewarded IN (0, 1)),
            unrewarded_reason TEXT,
            PRIMARY KEY (user_id, id)
        ) STRICT;
        CREATE INDEX runs_user_start ON runs(user_id, start_time);

        CREATE TABLE mission_assignments (
            seq INTEGER PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            id TEXT NOT NULL,
            day TEXT NOT NULL,
            kind TEXT NOT NULL,
            spec_json TEXT NOT NULL,
            model_version TEXT NOT NULL,
            p_complete REAL NOT NULL,
            xp INTEGER NOT NULL,
            status TEXT NOT NULL,
            run_id TEXT,
            progress REAL,
            p_true REAL,
            offered_at REAL NOT NULL,
            UNIQUE (user_id, id),
            FOREIGN KEY (user_id, run_id) REFERENCES runs(user_id, id) DEFERRABLE INITIALLY DEFERRED
        ) STRICT;
        CREATE INDEX mission_assignments_user_day ON mission_assignments(user_id, day);
        CREATE INDEX mission_assignments_status_offered ON mission_assignments(status, offered_at);

        CREATE TABLE rewards (
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            id TEXT NOT NULL,
            time REAL NOT NULL,
            xp INTEGER NOT NULL,
            reason TEXT NOT NULL,
            ref_id TEXT,
            PRIMARY KEY (user_id, id),
            UNIQUE (user_id, reason, ref_id)
        ) STRICT;
        CREATE INDEX rewards_user_time ON rewards(user_id, time);

        CREATE TABLE badges (
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            badge_id TEXT NOT NULL,
            awarded_at REAL NOT NULL,
            run_id TEXT,
            PRIMARY KEY (user_id, badge_id),
            FOREIGN KEY (user_id, run_id) REFERENCES runs(user_id, id) DEFERRABLE INITIALLY DEFERRED
        ) STRICT;

        CREATE TABLE ingest_answers (
            user_id TEXT NOT NULL REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED,
            run_id TEXT NOT NULL,
            answer_json TEXT NOT NULL,
            PRIMARY KEY (user_id, run_id)
        ) STRICT;

        -- Old run id -> new run id, per runner: the `user_id:` prefix goes unless the stripped
        -- id is taken by another run of the same runner.
        CREATE TEMP TABLE run_id_map AS
            SELECT r.user_id AS user_id, r.id AS old_id,
                CASE WHEN substr(r.id, 1, length(r.user_id) + 1) = r.user_id || ':'
                      AND NOT EXISTS (SELECT 1 FROM runs_v2 o
                                      WHERE o.user_id = r.user_id AND o.id = substr(r.id, length(r.user_id) + 2))
                     THEN substr(r.id, length(r.user_id) + 2) ELSE r.id END AS new_id
            FROM runs_v2 r;

        INSERT INTO runs (user_id, id, start_time, distance_m, elapsed_s, moving_s, elevation_gain_m,
                          calories_kcal, source, track)
            SELECT r.user_id, m.new_id, r.start_time, r.distance_m, r.elapsed_s, r.moving_s, r.elevation_gain_m,
                   r.calories_kcal, r.source, r.track
            FROM runs_v2 r JOIN run_id_map m ON m.old_id = r.id
            ORDER BY r.rowid;

        INSERT INTO mission_assignments (seq, user_id, id, day, kind, spec_json, model_version, p_complete, xp,
                                         status, run_id, progress, p_true, offered_at)
            SELECT a.seq, a.user_id, a.id, a.day, a.kind, a.spec_json, a.model_version, a.p_complete, a.xp,
                   a.status, CASE WHEN a.run_id IS NULL THEN NULL ELSE coalesce(m.new_id, a.run_id) END,
                   a.progress, a.p_true, a.offered_at
            FROM mission_assignments_v2 a LEFT JOIN run_id_map m ON m.old_id = a.run_id
            ORDER BY a.seq;

        INSERT INTO rewards (user_id, id, time, xp, reason, ref_id)
            SELECT w.user_id, w.id, w.time, w.xp, w.reason,
                   CASE WHEN w.reason = 'run' THEN coalesce(m.new_id, w.ref_id) ELSE w.ref_id END
            FROM rewards_v2 w LEFT JOIN run_id_map m ON m.old_id = w.ref_id AND w.reason = 'run'
            ORDER BY w.rowid;

        INSERT INTO badges (user_id, badge_id, awarded_at, run_id)
            SELECT b.user_id, b.badge_id, b.awarded_at,
                   CASE WHEN b.run_id IS NULL THEN NULL ELSE coalesce(m.new_id, b.run_id) END
            FROM badges_v2 b LEFT JOIN run_id_map m ON m.old_id = b.run_id
            ORDER BY b.rowid;

        INSERT INTO ingest_answers (user_id, run_id, answer_json)
            SELECT r.user_id, m.new_id, i.answer_json
            FROM ingest_answers_v2 i JOIN runs_v2 r ON r.id = i.run_id JOIN run_id_map m ON m.old_id = i.run_id
            ORDER BY i.rowid;

        DROP TABLE run_id_map;
        DROP TABLE ingest_answers_v2;
        DROP TABLE badges_v2;
        DROP TABLE rewards_v2;
        DROP TABLE mission_assignments_v2;
        DROP TABLE runs_v2;
        """

    /// Version 4 (issue 24): the display name race answers carry.
    static let version4 = """
        ALTER TABLE users ADD COLUMN display_name TEXT;
        """

    /// Durable races (docs/decisions/0526-durable-races.md): settings, the append-only log of
    /// accepted commands (join, leave, position with its points in the compact track form) and
    /// the results. Secrets are SHA-256 digests. No foreign key to users: a race outlives a
    /// runner who deletes their account (their rows are removed, the race stays).
    static let version5 = """
        CREATE TABLE races (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            distance_m REAL NOT NULL,
            start_time REAL NOT NULL,
            capacity INTEGER NOT NULL,
            public INTEGER NOT NULL CHECK (public IN (0, 1)),
            created_by TEXT NOT NULL,
            invite_sha256 TEXT,
            created_at REAL NOT NULL,
            cancelled_at REAL
        ) STRICT;
        CREATE INDEX races_start ON races(start_time, id);

        CREATE TABLE race_entries (
            race_id TEXT NOT NULL REFERENCES races(id) DEFERRABLE INITIALLY DEFERRED,
            seq INTEGER NOT NULL CHECK (seq > 0),
            kind TEXT NOT NULL CHECK (kind IN ('join', 'leave', 'position')),
            user_id TEXT NOT NULL,
            token_sha256 TEXT NOT NULL,
            time REAL NOT NULL,
            points BLOB,
            PRIMARY KEY (race_id, seq)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX race_entries_user ON race_entries(user_id, race_id);

        CREATE TABLE race_results (
            race_id TEXT NOT NULL REFERENCES races(id) DEFERRABLE INITIALLY DEFERRED,
            rank INTEGER NOT NULL CHECK (rank > 0),
            user_id TEXT NOT NULL,
            status TEXT NOT NULL,
            distance_m REAL NOT NULL,
            finish_time_s REAL,
            elapsed_pace_s_per_km REAL,
            gap_m REAL NOT NULL,
            time_gap_s REAL,
            xp INTEGER NOT NULL,
            badges_json TEXT NOT NULL,
            finished_at REAL NOT NULL,
            PRIMARY KEY (race_id, user_id),
            UNIQUE (race_id, rank)
        ) STRICT;
        """

    /// Digests of stored runs (record 0648): derived from the track, kept so that a run is
    /// digested once, not at every daemon start; deleted with their run.
    static let version6 = """
        CREATE TABLE run_digests (
            user_id TEXT NOT NULL,
            run_id TEXT NOT NULL,
            start_time REAL NOT NULL,
            distance_m REAL NOT NULL,
            digest BLOB NOT NULL,
            PRIMARY KEY (user_id, run_id),
            FOREIGN KEY (user_id, run_id) REFERENCES runs(user_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
        ) STRICT, WITHOUT ROWID;
        """

    /// One race at a time (docs/decisions/0550-one-race-at-a-time.md): the UTC hours of a
    /// runner's races' running windows, one race per hour. Joins made before this version hold
    /// nothing (their races end within a day and a cutoff of their start, at most 8 days).
    static let version7 = """
        CREATE TABLE race_holds (
            user_id TEXT NOT NULL,
            hour INTEGER NOT NULL,
            race_id TEXT NOT NULL REFERENCES races(id) DEFERRABLE INITIALLY DEFERRED,
            PRIMARY KEY (user_id, hour)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX race_holds_race ON race_holds(race_id, user_id);
        """
}
