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
}
