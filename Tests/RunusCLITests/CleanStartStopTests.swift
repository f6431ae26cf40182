import Foundation
import RunusCore
import Server
import Storage
import Testing
@testable import ModelStore
@testable import RunusCLI

/// Issue 53, item 3 (found 2026-12-08): `runus serve --db` on a mistyped path served an empty
/// database it had just created, and a clean stop left `<db>-serve.lock` behind.
@Suite("serve starts on the database it was given and leaves nothing behind", .serialized)
struct CleanStartStopTests {
    @Test("--db on a path with no database is refused naming it, and creates nothing; --create starts an empty one")
    func missingDatabase() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("missing-db")
        defer { dir.cleanup() }
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "missing-1"), card: "test", to: dir.file("model"))
        let typo = dir.file("runus.sqlte")
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["serve", "--db", typo, "--model", dir.file("model"), "--unix", dir.file("x.sock")], output: out)
        #expect(code == .usage)
        #expect(out.stderr.contains("there is no database at \(typo)") && out.stderr.contains("--create"), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: typo) && !FileManager.default.fileExists(atPath: typo + "-serve.lock"))

        let fresh = dir.file("new.sqlite")
        let daemon = try ChildDaemon(executable: executable, db: fresh, model: dir.file("model"), socket: dir.file("n.sock"),
                                     extraArguments: ["--create"])
        let client = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        #expect(try client.call(["op": "health"])["ok"] == true)
        #expect(FileManager.default.fileExists(atPath: fresh + "-serve.lock"))
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == .exited(0))
        // A clean stop removes its lock file; the database stays.
        #expect(!FileManager.default.fileExists(atPath: fresh + "-serve.lock"))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }

    @Test("a released lock's file is gone; a lock taken again works; one held meanwhile still refuses")
    func lockFile() throws {
        let dir = TemporaryDirectory("lockfile")
        defer { dir.cleanup() }
        let db = dir.file("x.sqlite")
        let first = try ServeLock(databasePath: db, now: 1_800_000_000)
        #expect(FileManager.default.fileExists(atPath: first.path))
        first.release()
        #expect(!FileManager.default.fileExists(atPath: first.path))
        let second = try ServeLock(databasePath: db, now: 1_800_000_001)
        #expect(throws: StorageError.self) { _ = try ServeLock(databasePath: db, now: 1_800_000_002) }
        second.release()
        second.release()  // idempotent
        #expect(!FileManager.default.fileExists(atPath: second.path))
    }
}
