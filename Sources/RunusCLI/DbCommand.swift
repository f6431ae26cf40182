import RunusCore
import Engine
import Storage

/// `runus db copy FROM TO`: a whole database from one store to another (SQLite and PostgreSQL,
/// either direction), then checked by counts and sums. `runus db digests DB`: every stored
/// run's digest brought to the current codec (record 0661).
enum DbCommand: Command {
    static let name = "db"
    static let abstract = "Copy a whole database between SQLite and PostgreSQL, or bring its run digests up to date."
    static let usage = "copy FROM TO | digests DB"
    static let discussion = """
    copy: FROM and TO are SQLite paths or postgresql:// URIs (docs/deploy.md). FROM must exist; TO
    must be empty (a new SQLite path, or a PostgreSQL database without records) or the copy is
    refused. Every runner's profile, runs with tracks, mission offers (in insertion order), XP
    ledger, badges and ingest answers are copied as stored, a batch of runners per transaction,
    then every race with its log of accepted commands and its results. Both databases then count
    and sum their rows (users, runs, tracks and their bytes, distance, offers, completions,
    rewards, XP, badges, answers, races, race entries and results); the table shows both, and
    the exit code is 1 when any figure differs.

    digests: every runner's stored runs are read, and each run whose kept digest is of an older
    codec version (version 1: surges unknown, record 0658), missing, kept for other totals or
    unreadable is digested again from its track and kept (record 0661), a runner at a time.
    Prints the counts. Safe to run again (it then finds every digest current) and while a
    daemon serves the database; a daemon reads the new digests once restarted.
    """
    static let parser = ArgumentParser(options: [
        .flag("quiet", help: "No progress on stderr."),
    ], positionals: ["ACTION", "FROM", "TO"], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        if arguments.positional.first == "digests" { return try digests(arguments, output: output) }
        guard arguments.positional.first == "copy" else {
            throw UsageError("db: unknown action '\(arguments.positional.first ?? "")', expected copy or digests")
        }
        guard arguments.positional.count == 3 else {
            throw UsageError("db copy: FROM and TO expected, got \(arguments.positional.count - 1) argument(s)")
        }
        let from = arguments.positional[1], to = arguments.positional[2]
        if case .sqlite(let a) = StoreLocation(from), case .sqlite(let b) = StoreLocation(to), a == b {
            throw UsageError("db copy: FROM and TO are the same file \(a)")
        }
        let source = try StoreOpening.open(try ParsedArguments.existingDatabase(from, label: "FROM"), for: .offline)
        defer { try? source.close() }
        let destination = try StoreOpening.open(to, for: .offline)
        defer { try? destination.close() }
        let progress = arguments.flag("quiet") ? nil
            : ProgressOutput(label: "copying runners", output: output, interactive: ProgressOutput.isTerminal(output))
        let outcome = try DatabaseCopy.run(from: source, to: destination) { done, total in
            progress?.update(done: done, total: total)
        }
        progress?.finish()
        try destination.close()
        output.out(table(outcome, from: source.location, to: destination.location))
        if outcome.mismatches.isEmpty {
            output.out("copy checked: every figure agrees\n")
            return .success
        }
        output.err("db copy: \(outcome.mismatches.count) figure(s) differ: \(outcome.mismatches.joined(separator: ", "))\n")
        return .failure
    }

    /// `runus db digests DB`: `RunDigests.refresh` for every runner, then the counts.
    static func digests(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        guard arguments.positional.count == 2 else {
            throw UsageError("db digests: DB expected, got \(arguments.positional.count - 1) argument(s)")
        }
        let store = try StoreOpening.open(try ParsedArguments.existingDatabase(arguments.positional[1], label: "DB"), for: .offline)
        defer { try? store.close() }
        let users = try store.allUsers()
        let progress = arguments.flag("quiet") ? nil
            : ProgressOutput(label: "digesting runners", output: output, interactive: ProgressOutput.isTerminal(output))
        var total = RunDigests.RefreshCounts()
        for (i, user) in users.enumerated() {
            total = total + (try RunDigests.refresh(user: user.id, store: store))
            progress?.update(done: i + 1, total: users.count)
        }
        progress?.finish()
        output.out("database: \(store.location)\nrunners\t\(users.count)\nruns\t\(total.runs)\ncurrent\t\(total.current)\n"
                   + "upgraded\t\(total.upgraded)\ncomputed\t\(total.computed)\nwithout a usable track\t\(total.withoutTrack)\n")
        return .success
    }

    /// `figure  FROM  TO  ok|DIFFERS`, tab-separated after a heading naming both databases.
    static func table(_ outcome: DatabaseCopy.Outcome, from: String, to: String) -> String {
        var text = "from: \(from)\nto:   \(to)\nfigure\tfrom\tto\tcheck\n"
        let differing = Set(outcome.mismatches)
        for (mine, theirs) in zip(outcome.source.figures, outcome.destination.figures) {
            text += "\(mine.name)\t\(mine.value)\t\(theirs.value)\t\(differing.contains(mine.name) ? "DIFFERS" : "ok")\n"
        }
        return text
    }
}
