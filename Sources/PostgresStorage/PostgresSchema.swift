import Storage

/// The PostgreSQL schema as an ordered list of migrations, the counterpart of SQLite's
/// `Schema` (docs/decisions/0406-postgresql-store.md). Append new versions; never edit a released
/// one. Version 1 holds what SQLite's versions 1-4 built, with the same tables, columns,
/// keys and orderings; applied versions are rows of `runus_schema`.
///
/// Type mapping: REAL → double precision (instants stay Unix seconds, UTC, as in SQLite: a
/// copy is bit-exact both ways and every comparison is the same arithmetic); INTEGER → bigint;
/// the 0/1 `rewarded` → boolean; BLOB → bytea; TEXT → text, with COLLATE "C" on every key,
/// day and ordering column so that ORDER BY and range comparisons follow byte order, as
/// SQLite's BINARY collation does (a database's default collation may be a locale's). Foreign
/// keys are DEFERRABLE INITIALLY DEFERRED, as in SQLite, so a batch may insert in any order.
enum PostgresSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, sql: version1),
    ]

    static var currentVersion: Int { migrations.count }

    /// The table of applied versions, made before the first migration (under the lock).
    static let versionTable = """
        CREATE TABLE IF NOT EXISTS runus_schema (
            version integer PRIMARY KEY,
            applied_at double precision NOT NULL
        )
        """

    static let version1 = """
        CREATE TABLE users (
            id text COLLATE "C" PRIMARY KEY,
            birth_year bigint,
            sex text,
            height_cm double precision,
            weight_kg double precision,
            time_zone text NOT NULL,
            utc_offset_s bigint NOT NULL,
            display_name text
        );

        CREATE TABLE runs (
            user_id text COLLATE "C" NOT NULL REFERENCES users (id) DEFERRABLE INITIALLY DEFERRED,
            id text COLLATE "C" NOT NULL,
            start_time double precision NOT NULL,
            distance_m double precision NOT NULL,
            elapsed_s double precision NOT NULL,
            moving_s double precision NOT NULL,
            elevation_gain_m double precision NOT NULL,
            calories_kcal double precision,
            source text NOT NULL,
            track bytea,
            rewarded boolean NOT NULL DEFAULT true,
            unrewarded_reason text,
            PRIMARY KEY (user_id, id)
        );
        CREATE INDEX runs_user_start ON runs (user_id, start_time);

        -- seq records insertion order ("in insertion order" in MissionStore).
        CREATE TABLE mission_assignments (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id text COLLATE "C" NOT NULL REFERENCES users (id) DEFERRABLE INITIALLY DEFERRED,
            id text COLLATE "C" NOT NULL,
            day text COLLATE "C" NOT NULL,
            kind text NOT NULL,
            spec_json text NOT NULL,
            model_version text NOT NULL,
            p_complete double precision NOT NULL,
            xp bigint NOT NULL,
            status text COLLATE "C" NOT NULL,
            run_id text COLLATE "C",
            progress double precision,
            p_true double precision,
            offered_at double precision NOT NULL,
            UNIQUE (user_id, id),
            FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) DEFERRABLE INITIALLY DEFERRED
        );
        CREATE INDEX mission_assignments_user_day ON mission_assignments (user_id, day);
        CREATE INDEX mission_assignments_status_offered ON mission_assignments (status, offered_at);

        -- XP is awarded once per (user, reason, ref): the unique key, not the code, keeps it.
        CREATE TABLE rewards (
            user_id text COLLATE "C" NOT NULL REFERENCES users (id) DEFERRABLE INITIALLY DEFERRED,
            id text COLLATE "C" NOT NULL,
            time double precision NOT NULL,
            xp bigint NOT NULL,
            reason text COLLATE "C" NOT NULL,
            ref_id text COLLATE "C",
            PRIMARY KEY (user_id, id),
            UNIQUE (user_id, reason, ref_id)
        );
        CREATE INDEX rewards_user_time ON rewards (user_id, time);

        CREATE TABLE badges (
            user_id text COLLATE "C" NOT NULL REFERENCES users (id) DEFERRABLE INITIALLY DEFERRED,
            badge_id text COLLATE "C" NOT NULL,
            awarded_at double precision NOT NULL,
            run_id text COLLATE "C",
            PRIMARY KEY (user_id, badge_id),
            FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) DEFERRABLE INITIALLY DEFERRED
        );

        CREATE TABLE ingest_answers (
            user_id text COLLATE "C" NOT NULL REFERENCES users (id) DEFERRABLE INITIALLY DEFERRED,
            run_id text COLLATE "C" NOT NULL,
            answer_json text NOT NULL,
            PRIMARY KEY (user_id, run_id)
        );
        """
}
