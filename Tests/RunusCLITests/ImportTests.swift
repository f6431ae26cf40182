import Testing
import Foundation
import RunusCore
import Tracking
import TrackFormats
import Storage
import Engine
import Missions
@testable import Service
@testable import Datasets
@testable import RunusCLI

/// Every run row of a database file, tracks included, in id order: what "same rows" means.
func runRows(_ path: String) throws -> [RunRecord] {
    let store = try SQLiteStore(path: path)
    defer { try? store.close() }
    var rows: [RunRecord] = []
    for user in try store.allUsers() {
        for run in try store.allRuns(user: user.id) { rows.append(try #require(try store.run(user: run.userID, id: run.id))) }
    }
    return rows.sorted { $0.id < $1.id }
}

/// Every user row of a database file, in id order.
func userRows(_ path: String) throws -> [UserProfile] {
    let store = try SQLiteStore(path: path)
    defer { try? store.close() }
    return try store.allUsers()
}

@Suite("runus import", .serialized)
struct ImportTests {
    static let start: EpochSeconds = 1_780_000_000

    /// Two runs (GPX with a sport, gzip CSV without one), a ride and a corrupt file.
    func writeFiles(_ dir: TemporaryDirectory) throws {
        let a = ImportTestFiles.track(seed: 1, distance: 3000, pace: 330, start: Self.start)
        let b = ImportTestFiles.track(seed: 2, distance: 4000, pace: 300, start: Self.start + 86_400)
        let ride = ImportTestFiles.track(seed: 3, distance: 5000, pace: 120, start: Self.start + 2 * 86_400)
        try ImportTestFiles.write(ImportTestFiles.gpx(a, type: "running"), to: dir.file("in/a.gpx"))
        try ImportTestFiles.writeGzip(ImportTestFiles.csv(b), to: dir.file("in/sub/b.csv.gz"))
        try ImportTestFiles.write(ImportTestFiles.gpx(ride, type: "cycling"), to: dir.file("in/ride.gpx"))
        // A GPX cut in the middle of a point.
        let cut = String(ImportTestFiles.gpx(a, type: "running").prefix(700))
        try ImportTestFiles.write(cut, to: dir.file("in/z-corrupt.gpx"))
    }

    @Test("files of one runner: runs stored, a ride skipped, a corrupt file failed alone; importing again changes nothing")
    func filesAndIdempotency() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        try writeFiles(dir)
        let db = dir.file("runs.sqlite")
        let args = ["import", "--db", db, "--runner", "ana", "--time-zone", "Europe/Paris", dir.file("in")]
        let first = CapturedOutput()
        #expect(RunusCLI.run(arguments: args, output: first) == .failure, "a failed file makes the exit code 1")
        #expect(first.stdout.contains("imported 2 runs (2 with a track, 0 summary-only"), "\(first.stdout)")
        #expect(first.stdout.contains("1\tsport cycling"))
        #expect(first.stdout.contains("failed: 1\n  \(dir.file("in/z-corrupt.gpx")):"), "\(first.stdout)")
        #expect(first.stderr.contains("import: 4/4 (100 %)"), "periodic progress lines when stderr is not a terminal")
        let rows = try runRows(db)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.source == "import" && $0.userID == "ana" && $0.track != nil })
        #expect(rows.allSatisfy { $0.id.hasPrefix("import-") })  // per-runner ids, record 0405
        let store = try SQLiteStore(path: db)
        #expect(try store.user(id: "ana")?.timeZone == "Europe/Paris")
        // Each run's digest is kept with it (record 0648), the one a daemon would compute.
        let kept = try store.runDigests(user: "ana").sorted { $0.runID < $1.runID }
        #expect(kept == rows.map(RunDigests.stored(for:)))
        #expect(kept.allSatisfy { RunDigestCodec.decode($0.bytes) != nil })
        try store.close()

        let second = CapturedOutput()
        #expect(RunusCLI.run(arguments: args, output: second) == .failure)
        #expect(second.stdout.contains("imported 0 runs"))
        #expect(second.stdout.contains("already imported: 2"))
        #expect(try runRows(db) == rows)
    }

    @Test("an imported run is the run runs.ingest stores for the same track (metrics, vehicle part removed, blob)")
    func sameAsIngestion() throws {
        let track = ImportTestFiles.track(seed: 4, distance: 3000, pace: 320, start: Self.start, drive: 3000)
        guard case .run(let imported, let points)? = ImportConversion.trackRun(track, id: "x", runner: "u", weightKg: 70) else {
            Issue.record("no run"); return
        }
        #expect(points == track.points.count)
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(UserProfile(id: "u", weightKg: 70))
        _ = try RunIngestion(store: store).ingest(user: "u", clientRunID: "x", track: track, now: Self.start + 86_400)
        var ingested = try #require(try store.run(user: "u", id: "x"))
        #expect(ingested.source == "app")
        ingested.source = "import"
        #expect(imported == ingested)
        // The drive is cut off: the stored distance is the run's, not the car's.
        #expect(abs(imported.distance - 3000) < 3000 * 0.05)
    }

    /// A dataset folder: a run with a track, a summary-only run, a ride, a run before 2001, a
    /// run with neither, a corrupt track, a row with a bad date; runner "r1" at UTC+8 (two of
    /// three offsets), "r2" at UTC+5:30.
    func writeDataset(_ dir: TemporaryDirectory) throws -> String {
        let root = dir.file("runners")
        let header = "runner,activity_id,sport,sport_detail,start_utc,utc_offset_s,distance_m,moving_time_s,elapsed_time_s,"
            + "avg_hr,has_track,track_status\n"
        let rows = [
            "r1,1,run,running,2026-05-01T06:00:00Z,28800,5010,1600,1700,,1,ok",
            "r1,2,run,running,2026-05-03T06:00:00Z,28800,7000,2400,,,0,none",
            "r1,3,ride,cycling,2026-05-04T06:00:00Z,3600,20000,3600,3700,,0,none",
            "r1,4,run,running,1989-12-31T00:00:00Z,,5000,1500,1500,,0,none",
            "r1,5,run,running,2026-05-06T06:00:00Z,,,,,,0,few_points",
            "r2,6,run,running,2026-05-02T01:00:00Z,19800,3000,1000,1000,,1,ok",
            "r2,7,run,running,2026-05-05T01:00:00Z,19800,4000,1300,1350,,0,none",
            "r2,8,run,running,05/06/2026,19800,4000,1300,1350,,0,none",
        ]
        try ImportTestFiles.write(header + rows.joined(separator: "\n") + "\n", to: root + "/activities.csv")
        try ImportTestFiles.write("runner,n_activities\nr1,5\nr2,3\n", to: root + "/runners.csv")
        let t1 = ImportTestFiles.track(seed: 5, distance: 3000, pace: 320, start: 1_777_615_200)
        try ImportTestFiles.writeGzip(ImportTestFiles.csv(t1), to: root + "/tracks/r1/1.csv.gz")
        try ImportTestFiles.write("not gzip, not csv", to: root + "/tracks/r2/6.csv.gz")
        return root
    }

    @Test("a dataset folder: tracks and summary-only runs kept, other rows skipped or failed with reasons; idempotent")
    func datasetFolder() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let root = try writeDataset(dir)
        let db = dir.file("d.sqlite")
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["import", "--db", db, "--dataset", root], output: out) == .failure)
        #expect(out.stdout.contains("imported 3 runs (1 with a track, 2 summary-only"), "\(out.stdout)")
        #expect(out.stdout.contains("2 new runners"))
        for reason in ["1\tsport ride", "1\tstart before 2001 (device clock reset)", "1\tno track and no summary (track_status few_points)"] {
            #expect(out.stdout.contains(reason), "\(reason) in \(out.stdout)")
        }
        #expect(out.stdout.contains("failed: 2"))
        #expect(out.stdout.contains("activities.csv:9: start_utc '05/06/2026'"))
        #expect(out.stdout.contains("r2 activity 6: "))
        let rows = try runRows(db)
        let users = try userRows(db)
        #expect(rows.map { "\($0.userID) \($0.id)" } == ["r1 dataset-1", "r1 dataset-2", "r2 dataset-7"])
        let summary = rows[1]
        #expect(summary.track == nil && summary.distance == 7000 && summary.moving == 2400 && summary.elapsed == 2400)
        #expect(summary.startTime == 1_777_788_000)
        #expect(rows[2].elapsed == 1350)
        #expect(rows[0].track != nil && abs(rows[0].distance - 3000) < 150)
        let store = try SQLiteStore(path: db)
        #expect(try store.user(id: "r1")?.timeZone == "Etc/GMT-8")
        #expect(try store.user(id: "r2")?.timeZone == "GMT+0530")
        #expect(try store.user(id: "r2")?.utcOffsetSeconds == 19_800)
        try store.close()
        let again = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["import", "--db", db, "--dataset", root], output: again) == .failure)
        #expect(again.stdout.contains("imported 0 runs") && again.stdout.contains("already imported: 3"), "\(again.stdout)")
        #expect(try runRows(db) == rows)
        #expect(try userRows(db) == users)
    }

    @Test("runners whose ids are one Swift String but differ in bytes (\"jos\\u{E9}\", \"jose\\u{301}\") are two runners with their own runs and zones; a repeat imports nothing")
    func runnersApartByBytes() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let root = dir.file("runners")
        let (composed, decomposed) = ("jos\u{E9}", "jose\u{301}")
        let header = "runner,activity_id,sport,sport_detail,start_utc,utc_offset_s,distance_m,moving_time_s,elapsed_time_s,"
            + "avg_hr,has_track,track_status\n"
        let rows = [
            "\(composed),1,run,running,2026-05-01T06:00:00Z,3600,5000,1600,1700,,0,none",
            "\(decomposed),1,run,running,2026-05-02T06:00:00Z,-18000,8000,2600,2700,,0,none",
            "\(decomposed),2,run,running,2026-05-03T06:00:00Z,-18000,9000,2900,3000,,0,none",
            // An offset no clock has (Int.min, which `abs` would trap on): the run counts, the offset does not.
            "\(composed),3,run,running,2026-05-04T06:00:00Z,-9223372036854775808,6000,1900,2000,,0,none",
        ]
        try ImportTestFiles.write(header + rows.joined(separator: "\n") + "\n", to: root + "/activities.csv")
        try ImportTestFiles.write("runner,n_activities\n\(composed),2\n\(decomposed),2\n", to: root + "/runners.csv")
        let db = dir.file("d.sqlite")
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["import", "--db", db, "--dataset", root], output: out) == .success, "\(out.stdout)\(out.stderr)")
        #expect(out.stdout.contains("imported 4 runs") && out.stdout.contains("2 new runners"), "\(out.stdout)")
        let store = try SQLiteStore(path: db)
        #expect(try store.allUsers().map { Array($0.id.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                == [Array(decomposed.utf8), Array(composed.utf8)], "two runners, ordered by bytes (0x65 before 0xC3)")
        #expect(try store.allRuns(user: composed).map(\.distance).sorted() == [5000, 6000])
        #expect(try store.allRuns(user: decomposed).map(\.distance).sorted() == [8000, 9000])
        #expect(try store.user(id: composed)?.utcOffsetSeconds == 3600)
        #expect(try store.user(id: decomposed)?.utcOffsetSeconds == -18_000)
        try store.close()
        let again = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["import", "--db", db, "--dataset", root], output: again) == .success, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("imported 0 runs") && again.stdout.contains("already imported: 4"), "\(again.stdout)")
    }

    @Test("fixed-offset zone names resolve to their offset")
    func zoneNames() {
        for offset in [0, 3600, -18_000, 19_800, -34_200, 50_400, 45_900] {
            let name = RunnersDataset.zoneName(utcOffset: offset)
            #expect(SystemTimeZones().offset(timeZone: name, at: 1_780_000_000) == offset, "\(name)")
        }
        #expect(RunnersDataset.isoInstant("2026-05-03T06:00:00Z") == 1_777_788_000)
        #expect(RunnersDataset.isoInstant("2026-02-30T06:00:00Z") == nil)
    }

    @Test("a dataset summary or track item without a run id fails alone, naming the item (it trapped)")
    func itemWithoutRunID() {
        let summary = ImportSummary(start: 1_800_000_000, distance: 5000, moving: 1500, elapsed: 1600)
        for source in [ImportItem.Source.summary(summary), .datasetTrack(path: "/nonexistent.gpx", summary: summary)] {
            let results = ImportConversion.convert(ImportItem(runner: "ana", source: source, runID: nil, name: "row 7"), existing: [])
            guard case .failed(let name, let message)? = results.first, results.count == 1 else {
                Issue.record("\(results)")
                continue
            }
            #expect(name == "row 7" && message.contains("no run id"), "\(message)")
        }
    }
}
