import RunusCore
import Engine
import Storage
import Training

/// What an import did, for the summary.
public struct ImportReport: Equatable {
    /// Runs stored by this import, with and without a track.
    public var importedTracks = 0
    public var importedSummaries = 0
    /// Fixes in the stored tracks.
    public var points = 0
    /// Items (runs or files) already in the database.
    public var alreadyPresent = 0
    /// Skipped activities by reason ("sport ride", "start before 2001 …").
    public var skipped: [String: Int] = [:]
    /// Items that could not be read: name and error, in item order.
    public var failed: [(name: String, message: String)] = []
    /// Users created by this import (existing profiles are left as they are).
    public var usersCreated = 0

    public var imported: Int { importedTracks + importedSummaries }

    public static func == (a: ImportReport, b: ImportReport) -> Bool {
        a.importedTracks == b.importedTracks && a.importedSummaries == b.importedSummaries && a.points == b.points
            && a.alreadyPresent == b.alreadyPresent && a.skipped == b.skipped && a.usersCreated == b.usersCreated
            && a.failed.map(\.name) == b.failed.map(\.name) && a.failed.map(\.message) == b.failed.map(\.message)
    }

    public mutating func add(_ result: ImportResult) {
        switch result {
        case .run: preconditionFailure("ImportReport.add: runs are counted when stored")
        case .present: alreadyPresent += 1
        case .skipped(let reason): skipped[reason, default: 0] += 1
        case .failed(let name, let message): failed.append((name, message))
        }
    }
}

/// Imports items into a store: reading, parsing and metrics run in parallel on every core, one
/// writer stores the runs in item order, one transaction per batch (record 0602). The same
/// items give the same rows in the same order, so an import is reproducible and a repeat
/// changes nothing (the run ids are deterministic, and stored ids are not read again).
public struct RunImporter {
    public let store: any DatabaseStore
    /// Items converted in parallel before their runs are written in one transaction, ≥ 1.
    public var batchSize = 64

    public init(store: any DatabaseStore, batchSize: Int = 64) {
        self.store = store
        self.batchSize = batchSize
    }

    /// Creates the missing users, then imports every item. `profiles` must name every runner of
    /// `items` (throws `DatasetError` naming the first that has none, before writing); a
    /// corrupt item fails alone. Runners and runs are told apart by the bytes of their ids
    /// (`ExactText`), as the store tells them apart.
    public func run(items: [ImportItem], profiles: [UserProfile], progress: (any ProgressReporter)?) throws -> ImportReport {
        let batchSize = max(1, self.batchSize)
        let named = Set(profiles.map { ExactText($0.id) })
        if let orphan = items.first(where: { !named.contains(ExactText($0.runner)) }) {
            throw DatasetError("\(orphan.name): no profile for runner '\(orphan.runner.prefix(80))'")
        }
        var report = ImportReport()
        var existing: [ExactText: Set<ExactText>] = [:]
        // Writes only when there is something to write: an empty write transaction still bumps
        // the file's change counter, and a repeated import must leave the file as it was.
        let missing = try profiles.filter { try store.user(id: $0.id) == nil }
        if !missing.isEmpty {
            try store.transaction { for profile in missing { try store.upsertUser(profile) } }
            report.usersCreated = missing.count
        }
        for profile in profiles { existing[ExactText(profile.id)] = Set(try store.allRuns(user: profile.id).map { ExactText($0.id) }) }
        var weighed: [ExactText: Double?] = [:]
        for profile in profiles { weighed[ExactText(profile.id)] = try store.user(id: profile.id)?.weightKg }
        let weights = weighed
        var done = 0
        progress?.update(done: 0, total: items.count)
        while done < items.count {
            let batch = Array(items[done..<min(items.count, done + batchSize)])
            let snapshot = existing
            let results = ParallelMap.map(count: batch.count) { i -> [ImportResult] in
                var item = batch[i]
                item.weightKg = weights[ExactText(item.runner)] ?? nil
                return ImportConversion.convert(item, existing: snapshot[ExactText(item.runner)] ?? [])
            }
            for result in results.joined() { if case .run = result { continue }; report.add(result) }
            let runs = zip(batch, results).flatMap { item, itemResults in
                itemResults.compactMap { result -> (UserID, RunRecord, Int)? in
                    guard case .run(let run, let points) = result else { return nil }
                    return (item.runner, run, points)
                }
            }
            if !runs.isEmpty {
                // The body only writes and says which runs went in: a server store may run it
                // again (TransactionalStore), so the report is counted after the commit.
                // Each new run's digest is kept with it (record 0648), computed here on every core
                // rather than by the first daemon to read the runner.
                let digests = ParallelMap.map(count: runs.count) { RunDigests.stored(for: runs[$0].1) }
                let inserted = try store.transaction {
                    let inserted = try runs.map { try store.insertRun($0.1) }
                    try store.storeRunDigests(zip(digests, inserted).filter(\.1).map(\.0))
                    return inserted
                }
                for ((runner, run, points), isNew) in zip(runs, inserted) {
                    // Two items of one import may give the same run (the same file twice).
                    guard isNew else { report.alreadyPresent += 1; continue }
                    existing[ExactText(runner), default: []].insert(ExactText(run.id))
                    if run.track == nil { report.importedSummaries += 1 } else { report.importedTracks += 1 }
                    report.points += points
                }
            }
            done += batch.count
            progress?.update(done: done, total: items.count)
        }
        progress?.finish()
        return report
    }
}
