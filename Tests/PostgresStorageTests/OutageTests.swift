import Foundation
import Testing
import RunusCore
import Storage
@testable import PostgresStorage

/// What a request sees when the server is not there, stops answering, or drops connections,
/// and that the store comes back by itself (record 0406). Times are bounded from above with
/// named margins; nothing here sleeps and hopes.
@Suite("PostgreSQL outages: requests fail within their timeout and the store reconnects")
struct OutageTests {
    /// Slack on a deadline for a loaded 2-core machine: the deadline itself is met to a poll's
    /// millisecond, scheduling can add a few hundred.
    static let schedulingMargin = 1.5

    static func elapsed(_ body: () throws -> Void) rethrows -> Double {
        let start = SocketWait.now()
        try body()
        return Double(SocketWait.now() - start) / 1e9
    }

    @Test("no server at the address: opening fails at once, naming host and database but never the password")
    func noServer() throws {
        let folder = try TemporaryFolder()
        let uri = "postgresql://runus:s3cret-pw@/nodb?host=\(folder.path)"
        var caught: StorageError?
        let seconds = Self.elapsed { do { _ = try PostgresStore(uri: uri) } catch { caught = error as? StorageError } }
        guard case let .unavailable(database, operation, _, detail)? = caught else {
            Issue.record("expected unavailable, got \(String(describing: caught))")
            return
        }
        #expect(database.contains(folder.path) && database.contains("nodb"))
        #expect(operation == "connect")
        #expect(!"\(caught.map { "\($0)" } ?? "")".contains("s3cret"))
        #expect(detail.contains("No such file") || detail.contains("refused"))
        #expect(seconds < Self.schedulingMargin)
        #expect(caught?.unavailableReason != nil)  // the daemon answers `unavailable`
    }

    @Test("a server that accepts and never answers: connecting gives up after connectTimeout")
    func silentServer() throws {
        let silent = try SilentServer()
        var configuration = PostgresConfiguration()
        configuration.connectTimeout = 0.5
        var caught: (any Error)?
        let seconds = Self.elapsed {
            do { _ = try PostgresStore(uri: "postgresql:///db?host=\(silent.folder.path)", configuration: configuration) } catch { caught = error }
        }
        #expect((caught as? StorageError)?.unavailableReason?.contains("no connection within") == true)
        #expect(seconds >= configuration.connectTimeout)
        #expect(seconds < configuration.connectTimeout + Self.schedulingMargin)
    }

    @Test("a statement the server does not answer in time fails after requestTimeout; the store carries on on a new connection")
    func requestDeadline() throws {
        var configuration = PostgresConfiguration()
        configuration.requestTimeout = 0.5
        configuration.statementTimeout = 30  // the server would not cancel it: only the client's deadline can
        try TestServer.withSchema { uri, _ in
            let store = try PostgresStore(uri: uri, configuration: configuration)
            defer { try? store.close() }
            var caught: (any Error)?
            let seconds = Self.elapsed {
                do { try store.pool.withConnection(idempotent: false) { _ = try $0.run(PGQuery("SELECT pg_sleep(5)"), []) } } catch { caught = error }
            }
            #expect((caught as? StorageError)?.unavailableReason?.contains("no answer within 0.5 s") == true)
            #expect(seconds >= configuration.requestTimeout && seconds < configuration.requestTimeout + Self.schedulingMargin)
            try store.upsertUser(Sample.user("u1"))
            #expect(try store.userCount() == 1)
        }
    }

    @Test("a statement over the server's statement_timeout is cancelled by the server: unavailable, and the connection stays")
    func statementTimeout() throws {
        var configuration = PostgresConfiguration()
        configuration.statementTimeout = 0.3
        try TestServer.withSchema { uri, _ in
            let store = try PostgresStore(uri: uri, configuration: configuration)
            defer { try? store.close() }
            let error = #expect(throws: StorageError.self) {
                try store.pool.withConnection(idempotent: false) { _ = try $0.run(PGQuery("SELECT pg_sleep(5)"), []) }
            }
            #expect(error?.unavailableReason?.contains("statement_timeout") == true)
            #expect(store.openConnections == 1)
            #expect(try store.userCount() == 0)
        }
    }

    @Test("connections the server ends are replaced: reads and transactions go on; a lost autocommit write is reported, not retried")
    func terminatedBackends() throws {
        try TestServer.withSchema { uri, schema in
            let store = try PostgresStore(uri: uri)
            defer { try? store.close() }
            try store.upsertUser(Sample.user("u1"))
            let admin = try TestServer.admin(try TestServer.requireURI())
            func terminate() throws -> Int {
                try admin.run(PGQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [.text]),
                              [.text(schema)]).count
            }
            #expect(try terminate() == 1)
            #expect(try store.user(id: "u1") == Sample.user("u1"))  // a read runs again on a new connection
            #expect(try terminate() == 1)
            try store.transaction { try store.upsertUser(Sample.user("u2")) }  // so does a transaction not yet committed
            #expect(try terminate() == 1)
            let error = #expect(throws: StorageError.self) { try store.upsertUser(Sample.user("u3")) }
            #expect(error?.unavailableReason != nil)
            try store.upsertUser(Sample.user("u3"))  // the next request reconnects
            #expect(try store.allUsers().map(\.id) == ["u1", "u2", "u3"])
        }
    }

    @Test("while the server is gone requests fail fast with the backoff's delay; when it is back the store reconnects")
    func outageAndReturn() throws {
        let base = try TestServer.requireURI()
        let info = try PostgresConnectionInfo(uri: base, connectTimeout: 3)
        let host = try #require(info.parameters.first { $0.0 == "host" }?.1)
        let port = info.parameters.first { $0.0 == "port" }?.1 ?? "5432"
        // The store reaches the server through a symbolic link to its socket: removing the link
        // takes the server away for this store only.
        let folder = try TemporaryFolder()
        let link = folder.path + "/.s.PGSQL." + port
        func connect() { _ = symlink(host + "/.s.PGSQL." + port, link) }
        connect()
        try TestServer.withSchema { uri, schema in
            var configuration = PostgresConfiguration()
            configuration.firstReconnectDelay = 0.2
            let store = try PostgresStore(uri: TestServer.uri(uri, adding: "host=\(folder.path)"), configuration: configuration)
            defer { try? store.close() }
            try store.upsertUser(Sample.user("u1"))
            unlink(link)
            let admin = try TestServer.admin(base)
            _ = try admin.run(PGQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [.text]),
                              [.text(schema)])
            // First request: its connection is dead and a new one cannot be made.
            let first = #expect(throws: StorageError.self) { _ = try store.user(id: "u1") }
            #expect(first?.unavailableReason != nil)
            // Next ones, within the backoff delay: at once, saying when the next attempt is.
            var fast: StorageError?
            let seconds = Self.elapsed { do { _ = try store.user(id: "u1") } catch { fast = error as? StorageError } }
            #expect(fast?.unavailableReason?.contains("next attempt in") == true)
            #expect(seconds < 0.1)  // no connect was tried: microseconds, 0.1 s for a loaded machine
            connect()
            // Back: within a few backoff delays a request gets through.
            let deadline = SocketWait.deadline(after: 5)
            var user: UserProfile?
            while user == nil, SocketWait.now() < deadline {
                user = try? store.user(id: "u1")
                if user == nil { SocketWait.sleep(seconds: 0.02) }
            }
            #expect(user == Sample.user("u1"))
        }
    }
}

/// A folder under /tmp, removed with what it holds when released.
final class TemporaryFolder {
    let path: String
    init() throws {
        path = "/tmp/runus-pgtest-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A Unix socket where libpq looks for a server (`FOLDER/.s.PGSQL.5432`) that takes
/// connections into its backlog and never says a word: a server that froze.
final class SilentServer {
    let folder: TemporaryFolder
    private let descriptor: Int32

    init() throws {
        folder = try TemporaryFolder()
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((folder.path + "/.s.PGSQL.5432").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in path.prefix(buffer.count - 1).enumerated() { buffer[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
            throw StorageError.closed(operation: "SilentServer: cannot listen on \(folder.path): errno \(errno)")
        }
    }

    deinit { close(descriptor) }
}
