import Foundation
import RunusCore
@testable import Storage

/// A unique database path under /tmp; `body` runs with it and every file SQLite may have made
/// next to it (-wal, -shm, -journal) is removed afterwards.
func withTemporaryDatabasePath<T>(_ name: String = #function, _ body: (String) throws -> T) rethrows -> T {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let path = "/tmp/runus-storage-\(safe)-\(UUID().uuidString).sqlite"
    defer { removeDatabaseFiles(path) }
    return try body(path)
}

func removeDatabaseFiles(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

func fileBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// SQLite's BINARY collation: byte order of the UTF-8 text (the oracle for ORDER BY id).
func binaryLess(_ a: String, _ b: String) -> Bool {
    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
}

/// Sample records with every optional field set, and with every optional field nil.
enum Sample {
    static func user(_ id: String, full: Bool = true) -> UserProfile {
        full ? UserProfile(id: id, birthYear: 1988, sex: "f", heightCm: 171.5, weightKg: 62.25,
                           timeZone: "Europe/Paris", utcOffsetSeconds: 3600)
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

/// Oracle order "by key, then id in byte order".
func keyThenID(_ keyA: Double, _ idA: String, _ keyB: Double, _ idB: String) -> Bool {
    keyA != keyB ? keyA < keyB : binaryLess(idA, idB)
}
