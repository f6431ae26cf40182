import Foundation
import Testing
import RunusCore
import Storage
@testable import PostgresStorage

/// The two stores the conformance suite runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// A store under test: `DatabaseStore` and whether the calling thread is in a transaction.
protocol TestStore: DatabaseStore {
    var isInTransaction: Bool { get }
}

extension SQLiteStore: TestStore {
    var isInTransaction: Bool { connection.isInTransaction }
}

extension PostgresStore: TestStore {}

/// The throwaway server `make test` starts (scripts/with-postgres.sh), from RUNUS_TEST_POSTGRES.
enum TestServer {
    static let uri: String? = ProcessInfo.processInfo.environment["RUNUS_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    static let skipMessage = "RUNUS_TEST_POSTGRES is unset: no PostgreSQL server to test against (make test starts one)"

    /// The server's URI, or cancels the current test case with `skipMessage`.
    static func requireURI() throws -> String {
        guard let uri else {
            print("skipped: \(skipMessage)")
            try Test.cancel(Comment(rawValue: skipMessage))
        }
        return uri
    }

    /// `uri` with more query parameters (already percent-encoded).
    static func uri(_ base: String, adding parameters: String) -> String {
        base + (base.contains("?") ? "&" : "?") + parameters
    }

    /// A connection for the tests' own setup (schemas, pg_terminate_backend), outside any store.
    static func admin(_ uri: String) throws -> PGConnection {
        let info = try PostgresConnectionInfo(uri: uri, connectTimeout: 5)
        return try PGConnection.connect(info, timeout: 5, requestTimeout: 30, statementTimeout: 30, idleInTransactionTimeout: 60)
    }

    /// A name no other test uses: letters, digits and `_` only (it is written into the tests'
    /// setup SQL; the store itself never builds SQL from values).
    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + String(getpid()) + "_" + UUID().uuidString.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(12)
    }

    /// Runs `body` with the URI of a fresh schema of its own (search_path set in the URI's
    /// options), dropped afterwards: tests never see each other's rows.
    static func withSchema<T>(_ body: (_ uri: String, _ schema: String) throws -> T) throws -> T {
        let base = try requireURI()
        let schema = uniqueName("t")
        let admin = try admin(base)
        try admin.execute("CREATE SCHEMA \(schema)")
        defer { _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE") }
        return try body(uri(base, adding: "options=-c%20search_path%3D\(schema)&application_name=\(schema)"), schema)
    }
}

/// Runs `body` with a fresh, empty store of `kind`; closes and removes it afterwards.
@discardableResult
func withStore<T>(_ kind: StoreKind, configuration: PostgresConfiguration = .daemon,
                  log: @escaping @Sendable (String) -> Void = { _ in }, _ body: (any TestStore) throws -> T) throws -> T {
    switch kind {
    case .sqlite:
        let path = "/tmp/runus-conformance-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, log: log)
        defer { try? store.close() }
        return try body(store)
    case .postgres:
        return try TestServer.withSchema { uri, _ in
            let store = try PostgresStore(uri: uri, configuration: configuration, log: log)
            defer { try? store.close() }
            return try body(store)
        }
    }
}

/// Sample records with every optional field set, and with every optional field nil.
enum Sample {
    static func user(_ id: String, full: Bool = true) -> UserProfile {
        full ? UserProfile(id: id, birthYear: 1988, sex: "f", heightCm: 171.5, weightKg: 62.25,
                           timeZone: "Europe/Paris", utcOffsetSeconds: 3600, displayName: "Ann Ö.")
             : UserProfile(id: id)
    }

    static func run(_ id: String, user: String, start: EpochSeconds, track: [UInt8]? = nil,
                    calories: Double? = 412.5) -> RunRecord {
        RunRecord(id: id, userID: user, startTime: start, distance: 5012.3, elapsed: 1804.7, moving: 1750.2,
                  elevationGain: 42.1, calories: calories, source: "simulated", track: track)
    }

    static func assignment(_ id: String, user: String, day: CivilDate, offeredAt: EpochSeconds,
                           status: MissionStatus = .offered) -> MissionAssignment {
        MissionAssignment(id: id, userID: user, day: day, kind: "negative_split",
                          specJSON: #"{"kind":"negative_split","min_distance_m":5000}"#,
                          modelVersion: "gbdt-1", pComplete: 0.625, xp: 120, status: status,
                          offeredAt: offeredAt)
    }

    static let day = CivilDate(year: 2026, month: 3, day: 14)!
}

/// Byte order of the UTF-8 text (the oracle for ORDER BY id on both stores).
func binaryLess(_ a: String, _ b: String) -> Bool {
    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
}

/// Oracle order "by key, then id in byte order".
func keyThenID(_ keyA: Double, _ idA: String, _ keyB: Double, _ idB: String) -> Bool {
    keyA != keyB ? keyA < keyB : binaryLess(idA, idB)
}

struct Boom: Error, Equatable {}

/// Thread-safe list of what threads observed.
final class Observations: @unchecked Sendable {
    private let lock = NSLock()
    private var _failures: [String] = []
    private var _values: [Int] = []

    var failures: [String] { lock.withLock { _failures } }
    var values: [Int] { lock.withLock { _values } }
    func fail(_ message: String) { lock.withLock { _failures.append(message) } }
    func add(_ value: Int) { lock.withLock { _values.append(value) } }
}

/// Runs `body(i)` on `count` threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        Thread {
            body(i)
            group.leave()
        }.start()
    }
    group.wait()
}
