import Storage

/// The PostgreSQL schema as an ordered list of migrations, the counterpart of SQLite's
/// `Schema` (docs/decisions/0406-postgresql-store.md). Append new versions; never edit a released
/// one. Version 1 holds what SQLite's versions 1-4 built, version 2 SQLite's 5 (durable
/// races), with the same tables, columns, keys and orderings; applied versions are rows of
/// `runus_schema`.
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
        Migration(version: 2, sql: version2),
        Migration(version: 3, sql: version3),
        Migration(version: 4, sql: version4),
        Migration(version: 5, sql: version5),
        Migration(version: 6, sql: version6),
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

    /// Durable races (docs/decisions/0526-durable-races.md), as SQLite's version 5: settings,
    /// the append-only log of accepted commands and the results; secrets as SHA-256 digests;
    /// no foreign key to users (a race outlives a runner who deletes their account).
    static let version2 = """
        CREATE TABLE races (
            id text COLLATE "C" PRIMARY KEY,
            name text NOT NULL,
            distance_m double precision NOT NULL,
            start_time double precision NOT NULL,
            capacity bigint NOT NULL,
            public boolean NOT NULL,
            created_by text COLLATE "C" NOT NULL,
            invite_sha256 text,
            created_at double precision NOT NULL,
            cancelled_at double precision
        );
        CREATE INDEX races_start ON races (start_time, id);

        CREATE TABLE race_entries (
            race_id text COLLATE "C" NOT NULL REFERENCES races (id) DEFERRABLE INITIALLY DEFERRED,
            seq bigint NOT NULL CHECK (seq > 0),
            kind text NOT NULL CHECK (kind IN ('join', 'leave', 'position')),
            user_id text COLLATE "C" NOT NULL,
            token_sha256 text NOT NULL,
            time double precision NOT NULL,
            points bytea,
            PRIMARY KEY (race_id, seq)
        );
        CREATE INDEX race_entries_user ON race_entries (user_id, race_id);

        CREATE TABLE race_results (
            race_id text COLLATE "C" NOT NULL REFERENCES races (id) DEFERRABLE INITIALLY DEFERRED,
            rank bigint NOT NULL CHECK (rank > 0),
            user_id text COLLATE "C" NOT NULL,
            status text NOT NULL,
            distance_m double precision NOT NULL,
            finish_time_s double precision,
            elapsed_pace_s_per_km double precision,
            gap_m double precision NOT NULL,
            time_gap_s double precision,
            xp bigint NOT NULL,
            badges_json text NOT NULL,
            finished_at double precision NOT NULL,
            PRIMARY KEY (race_id, user_id),
            UNIQUE (race_id, rank)
        );
        """

    /// Replicas (docs/decisions/0541-replicas.md): a runner's generation, a number the database
    /// changes at every write to their profile, runs or missions, whichever daemon made it; a
    /// daemon's missions.today cache keeps what it computed only while the number stands.
    /// Triggers, so that no write path can forget it; numbers from one sequence, never reused.
    static let version3 = """
        CREATE SEQUENCE user_generation_seq;
        CREATE TABLE user_generations (
            user_id text COLLATE "C" PRIMARY KEY,
            generation bigint NOT NULL
        );
        CREATE FUNCTION runus_bump_generation(uid text) RETURNS void LANGUAGE sql AS $$
            INSERT INTO user_generations (user_id, generation) VALUES (uid, nextval('user_generation_seq'))
            ON CONFLICT (user_id) DO UPDATE SET generation = excluded.generation
        $$;
        CREATE FUNCTION runus_runner_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN PERFORM runus_bump_generation(OLD.user_id); END IF;
            IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
                PERFORM runus_bump_generation(NEW.user_id);
            END IF;
            RETURN NULL;
        END $$;
        CREATE FUNCTION runus_user_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN PERFORM runus_bump_generation(OLD.id); END IF;
            IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.id IS DISTINCT FROM OLD.id) THEN
                PERFORM runus_bump_generation(NEW.id);
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER users_generation AFTER INSERT OR UPDATE OR DELETE ON users
            FOR EACH ROW EXECUTE FUNCTION runus_user_row_changed();
        CREATE TRIGGER runs_generation AFTER INSERT OR UPDATE OR DELETE ON runs
            FOR EACH ROW EXECUTE FUNCTION runus_runner_row_changed();
        CREATE TRIGGER mission_assignments_generation AFTER INSERT OR UPDATE OR DELETE ON mission_assignments
            FOR EACH ROW EXECUTE FUNCTION runus_runner_row_changed();
        """

    /// A race command in one round trip (docs/decisions/0543-one-round-trip-appends.md): under
    /// the race's row lock, as every daemon's locked appends take it, the entry goes in at the
    /// end of the log (each statement of a volatile function reads what committed before it,
    /// so the last seq is current once the lock is held), and the function returns the entries
    /// after `p_after`, the new one last; no row when the race is unknown or called off. It
    /// commits without waiting for the WAL flush, as the locked path's positions (record 0526).
    static let version4 = """
        CREATE FUNCTION runus_append_race_entry(p_race text, p_after bigint, p_kind text, p_user text, p_token text,
                                                p_time double precision, p_points bytea)
        RETURNS SETOF race_entries LANGUAGE plpgsql AS $$
        DECLARE
            standing boolean;
            next_seq bigint;
        BEGIN
            SELECT cancelled_at IS NULL INTO standing FROM races WHERE id = p_race FOR UPDATE;
            IF standing IS NOT TRUE THEN RETURN; END IF;
            IF p_kind = 'position' THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
            SELECT coalesce(max(e.seq), 0) + 1 INTO next_seq FROM race_entries e WHERE e.race_id = p_race;
            INSERT INTO race_entries (race_id, seq, kind, user_id, token_sha256, time, points)
                VALUES (p_race, next_seq, p_kind, p_user, p_token, p_time, p_points);
            RETURN QUERY SELECT e.* FROM race_entries e WHERE e.race_id = p_race AND e.seq > p_after ORDER BY e.seq;
        END $$;
        """

    /// Digests of stored runs (record 0648): derived from the track, kept so that a run is
    /// digested once, not at every daemon start; deleted with their run. No trigger bumps the
    /// runner's generation: a digest changes no answer.
    static let version5 = """
        CREATE TABLE run_digests (
            user_id text COLLATE "C" NOT NULL,
            run_id text COLLATE "C" NOT NULL,
            start_time double precision NOT NULL,
            distance_m double precision NOT NULL,
            digest bytea NOT NULL,
            PRIMARY KEY (user_id, run_id),
            FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
        );
        """

    /// One race at a time (docs/decisions/0550-one-race-at-a-time.md), SQLite's version 7.
    static let version6 = """
        CREATE TABLE race_holds (
            user_id text COLLATE "C" NOT NULL,
            hour bigint NOT NULL,
            race_id text COLLATE "C" NOT NULL REFERENCES races (id) DEFERRABLE INITIALLY DEFERRED,
            PRIMARY KEY (user_id, hour)
        );
        CREATE INDEX race_holds_race ON race_holds (race_id, user_id);
        """
}
