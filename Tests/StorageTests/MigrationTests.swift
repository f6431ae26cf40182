import Testing
import RunusCore
@testable import Storage

@Suite("Opening a file and moving its schema forward")
struct MigrationTests {
    static let v1 = Schema.migrations[0]
    static let v2 = Migration(version: 2, sql: """
        ALTER TABLE runs ADD COLUMN notes TEXT;
        CREATE TABLE badges (id TEXT PRIMARY KEY NOT NULL, user_id TEXT NOT NULL) STRICT;
        """)
    static let v3Broken = Migration(version: 3, sql: "CREATE TABLE oops (syntax error here")

    @Test("a new database is at the current schema version")
    func freshDatabase() throws {
        let store = try SQLiteStore(path: ":memory:")
        #expect(try store.connection.userVersion() == Schema.currentVersion)
        #expect(try store.connection.migrate(Schema.migrations) == (Schema.currentVersion, Schema.currentVersion))
    }

    @Test("a v1-only database is upgraded to v2 in place, keeping its rows")
    func upgradeFromV1() throws {
        try withTemporaryDatabasePath { path in
            // Rows as version 1 wrote them (today's insert statements name version 3's columns).
            let old = try SQLiteStore(path: path, migrations: [Self.v1])
            try old.connection.run("INSERT INTO users (id, time_zone, utc_offset_s) VALUES (?, ?, ?)",
                                   .text("u1"), .text("Europe/Paris"), .integer(3600))
            try old.connection.run("""
                INSERT INTO runs (id, user_id, start_time, distance_m, elapsed_s, moving_s, elevation_gain_m, source)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, .text("r1"), .text("u1"), .real(1), .real(5012.3), .real(1804.7), .real(1750.2), .real(42.1), .text("simulated"))
            try old.close()

            let store = try SQLiteStore(path: path, migrations: [Self.v1, Self.v2])
            #expect(try store.connection.userVersion() == 2)
            let distance = try store.connection.withStatement("SELECT distance_m FROM runs WHERE id = ?") { s in
                try s.bind("r1", at: 1)
                return try s.step() ? s.double(at: 0) : -1
            }
            #expect(distance == 5012.3)
            let notes = try store.connection.withStatement("SELECT notes FROM runs WHERE id = ?") { s in
                try s.bind("r1", at: 1)
                return try s.step() ? s.optionalString(at: 0) : "no row"
            }
            #expect(notes == nil)  // the new column exists and is NULL for old rows
            try store.connection.run("INSERT INTO badges (id, user_id) VALUES (?, ?)", .text("b1"), .text("u1"))
            try store.close()
        }
    }

    @Test("a failing step rolls back every step of that upgrade")
    func upgradeIsAtomic() throws {
        try withTemporaryDatabasePath { path in
            try SQLiteStore(path: path, migrations: [Self.v1]).close()
            let error = #expect(throws: StorageError.self) {
                try SQLiteStore(path: path, migrations: [Self.v1, Self.v2, Self.v3Broken])
            }
            #expect(error?.description.contains("migration to version 3") == true)
            let store = try SQLiteStore(path: path, migrations: [Self.v1])
            #expect(try store.connection.userVersion() == 1)
            // v2 ran before v3 failed, but its table is gone with the rollback.
            #expect(throws: StorageError.self) { try store.connection.execute("SELECT * FROM badges") }
            try store.close()
        }
    }

    @Test("a database written by newer code is refused with a clear error and left untouched")
    func refuseNewer() throws {
        try withTemporaryDatabasePath { path in
            let store = try SQLiteStore(path: path)
            let newer = Schema.currentVersion + 1
            try store.connection.execute("PRAGMA user_version = \(newer)")
            try store.close()
            let before = try fileBytes(path)
            let error = #expect(throws: StorageError.self) { try SQLiteStore(path: path) }
            #expect(error == .schemaTooNew(path: path, found: newer, supported: Schema.currentVersion))
            #expect(error?.description.contains("schema version \(newer)") == true)
            #expect(try fileBytes(path) == before)  // refusing does not write to the file
        }
    }

    @Test("a path that cannot be opened throws SQLITE_CANTOPEN naming the path")
    func unopenablePath() throws {
        let path = "/tmp/runus-storage-no-such-directory-\(UInt64.random(in: 0...UInt64.max))/db.sqlite"
        let error = #expect(throws: StorageError.self) { try SQLiteStore(path: path) }
        #expect(error?.sqliteCode == 14)  // SQLITE_CANTOPEN
        #expect(error?.description.contains(path) == true)
    }
}
