import Testing
import Storage
@testable import PostgresStorage

@Suite("--db locations and what messages show of them")
struct LocationTests {
    @Test("a postgresql:// or postgres:// URI opens PostgreSQL; anything else is a SQLite path",
          arguments: [("postgresql://db/runus", true), ("POSTGRES://h/d", true), ("postgres:/x", false),
                      ("var/runus.sqlite", false), ("./postgresql://x", false), (":memory:", false)])
    func kinds(argument: String, isPostgres: Bool) {
        let location = StoreLocation(argument)
        #expect((location == .postgres(uri: argument)) == isPostgres)
        #expect((location == .sqlite(path: argument)) == !isPostgres)
    }

    @Test("a URI's password never shows, in the user info nor in a query parameter",
          arguments: [("postgresql://app:s3cret@db.example:5432/runus", "postgresql://app@db.example:5432/runus"),
                      ("postgresql://app:s3:c@r:et@db/runus?sslmode=require", "postgresql://app@db/runus?sslmode=require"),
                      ("postgresql:///runus?host=/tmp/x&password=s3cret&user=app", "postgresql:///runus?host=/tmp/x&password=***&user=app"),
                      ("postgresql://db/runus", "postgresql://db/runus")])
    func redaction(uri: String, shown: String) {
        #expect(StoreLocation(uri).description == shown)
        #expect(!StoreLocation(uri).description.contains("s3"))
    }

    @Test("libpq parses the URI: the description names host, port, database and user, never the password")
    func connectionInfo() throws {
        let info = try PostgresConnectionInfo(uri: "postgresql://app:s3cret@db.example:6543/runus?sslmode=disable", connectTimeout: 3)
        #expect(info.description == #"PostgreSQL database "runus" on db.example:6543 as app"#)
        #expect(!info.description.contains("s3cret"))
        #expect(info.parameters.contains { $0 == ("password", "s3cret") })
        #expect(info.parameters.contains { $0 == ("client_encoding", "UTF8") })
        #expect(info.parameters.contains { $0 == ("connect_timeout", "3") })
        let overridden = try PostgresConnectionInfo(uri: "postgresql://h/d?connect_timeout=9&client_encoding=LATIN1", connectTimeout: 3)
        #expect(overridden.parameters.filter { $0.0 == "connect_timeout" }.map(\.1) == ["9"])
        #expect(overridden.parameters.filter { $0.0 == "client_encoding" }.map(\.1) == ["UTF8"])
    }

    @Test("a malformed URI is refused with libpq's reason and no password")
    func malformed() {
        let error = #expect(throws: StorageError.self) {
            try PostgresConnectionInfo(uri: "postgresql://u:s3cret@h/d?nonsense=1", connectTimeout: 3)
        }
        #expect(error?.description.contains("nonsense") == true)
        #expect(error?.description.contains("s3cret") == false)
    }
}
