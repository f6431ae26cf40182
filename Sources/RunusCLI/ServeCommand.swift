import Foundation
import RunusCore
import ModelStore
import Engine
import Server
import Storage
import PostgresStorage
import Learning
import Tracking
import Service

/// `runus serve`: the daemon.
enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the line-delimited JSON protocol on TCP and/or a Unix socket."
    static let usage = "--db PATH|URI [--model DIR | --models DIR] [--listen HOST:PORT] [--unix PATH] [--token-file PATH] [limits]"
    static let discussion = """
    One JSON object per line in both directions (docs/protocol.md). Prints one 'listening' line
    per address on stdout when ready; logs are JSON lines on stderr. SIGTERM or SIGINT stops
    accepting, finishes pending answers and exits 0. SIGHUP or a 'model.reload' request re-reads
    the model directory and swaps the model in without failing a request. Without --model, the
    daemon serves the model promoted in the registry (`runus models promote`), or MODELS/default
    when none is, and a reload picks up a newer promotion. The model's feature
    schema must match this build's, or the daemon refuses to start (and a reload is refused).
    Listening on a non-loopback address needs --token-file (mode 0600 or stricter); TCP clients
    then send {"op":"auth","token":"…"} first (Unix socket clients are exempt), and a connection
    is closed after 3 wrong tokens. Limits that keep one client from hurting the others:
    --max-line-bytes, --max-connections, --idle-timeout, --max-buffered-bytes
    (memory for all clients together), --line-deadline (slow senders) and --write-deadline
    (clients that do not read their answers). A SQLite --db must exist unless --create
    (record 0558); docs/decisions/0501, 0512, 0513, 0530, 0531 and
    0555 give the reasons for each default.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "SQLite file (it must exist unless --create) or postgresql:// URI (docs/deploy.md)."),
        .flag("create", help: "Create an empty SQLite database at --db when there is none (a new deployment)."),
        .optional("model", "DIR", help: "Model directory holding model.json (default: the registry's promoted model)."),
        .value("models", "DIR", default: "models", help: "Model registry: the promoted model, else DIR/default."),
        .repeated("listen", "HOST:PORT", help: "TCP address (default 127.0.0.1:7878 when no --unix)."),
        .optional("unix", "PATH", help: "Unix socket path (created with mode 0660)."),
        .optional("token-file", "PATH", help: "File whose content (trimmed, >= 16 bytes) TCP clients must 'auth' with; mode 0600 or stricter."),
        .value("max-line-bytes", "N", default: "4194304", help: "Longest accepted request line in bytes (1024-1073741824)."),
        .value("loops", "N", default: "0", help: "Event loops (threads), 1-256; 0: one per core."),
        .value("max-connections", "N", default: "4096", help: "Open connections above which new ones are refused (1-1000000)."),
        .value("idle-timeout", "SECONDS", default: "300", help: "Close connections silent this long (0.01-86400)."),
        .value("max-buffered-bytes", "N", default: "268435456",
               help: "Memory all connections together may hold in buffers; beyond it new work gets 'unavailable' (1048576-1099511627776, at least 2 × --max-line-bytes)."),
        .value("line-deadline", "SECONDS", default: "30",
               help: "A request line must end this long after its first byte, else 'line_timeout' and close (0.01-86400)."),
        .optional("access-log", "PATH|-",
                  help: "Append one JSON line per answered request (op, request_id, user, code, ms) to PATH, or stdout for -."),
        .optional("metrics-listen", "HOST:PORT",
                  help: "Serve HTTP GET /metrics (Prometheus text), /healthz and /readyz there (port 0: any free port)."),
        .value("write-deadline", "SECONDS", default: "30",
               help: "Pending answers must see the client read some of them this often, else the connection is closed (0.01-86400)."),
        .value("offload", "OPS", default: "runs.ingest,runs.get,model.reload,missions.evaluate,missions.progress,missions.history,users.export,users.delete",
               help: "Comma-separated operations run on the worker pool (whatever can take milliseconds: record 0510)."),
        .value("reward-window-days", "DAYS", default: "7", help: "Runs that started longer ago complete no mission and earn no XP (1-365)."),
    ])

    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let tokenPath = arguments.string("token-file")
        var addresses = try arguments.strings("listen").map { text -> ServerAddress in
            let address = try parseAddress(text)
            if case .tcp(let host, _) = address, !loopbackHosts.contains(host), tokenPath == nil {
                throw UsageError("--listen: \(text) is not a loopback address; listening there needs --token-file")
            }
            return address
        }
        if let unix = arguments.string("unix") { addresses.append(.unix(path: unix)) }
        if addresses.isEmpty { addresses = [.tcp(host: "127.0.0.1", port: 7878)] }

        var configuration = ServerConfiguration(addresses: addresses)
        configuration.maximumLineBytes = try arguments.int("max-line-bytes", in: 1024...(1 << 30))!
        let loops = try arguments.int("loops", in: 0...256)!
        configuration.loopCount = loops == 0 ? ServerConfiguration.availableCores : loops
        configuration.maximumConnections = try arguments.int("max-connections", in: 1...1_000_000)!
        configuration.idleTimeout = .milliseconds(Int64(try arguments.double("idle-timeout", in: 0.01...86_400)! * 1000))
        if let cap = try arguments.int("max-buffered-bytes", in: (1 << 20)...(1 << 40)) {
            guard cap / 2 >= configuration.maximumLineBytes else {
                throw UsageError("--max-buffered-bytes: \(cap) is less than twice --max-line-bytes \(configuration.maximumLineBytes); "
                                 + "a long line could never be read")
            }
            configuration.maximumBufferedBytes = cap
        }
        if let deadline = try arguments.double("line-deadline", in: 0.01...86_400) { configuration.lineDeadline = .seconds(deadline) }
        if let deadline = try arguments.double("write-deadline", in: 0.01...86_400) { configuration.writeDeadline = .seconds(deadline) }
        configuration.offloadedOperations = Set(try arguments.require("offload").split(separator: ",").map {
            String($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty })
        if let tokenPath { configuration.authToken = try readToken(tokenPath) }
        let log: @Sendable (String) -> Void = { line in StandardStreams().err(line + "\n") }

        let source = try ModelSource(model: arguments.string("model"), models: try arguments.require("models"))
        let databasePath = try arguments.require("db")
        // A mistyped path must not start an empty daemon that answers every runner `not_found`
        // and writes their runs into a stray file (issue 53).
        if case .sqlite(let path) = StoreLocation(databasePath), path != ":memory:", !arguments.flag("create"),
           !FileManager.default.fileExists(atPath: path) {
            throw UsageError("--db: there is no database at \(path); check the path, make one (runus simulate, runus import), "
                             + "or pass --create to start with an empty one")
        }
        // One daemon per SQLite file: a second one is refused here, naming the first (record 0526).
        // On PostgreSQL any number of replicas share the database (record 0541).
        var lock: ServeLock?
        if case .sqlite(let path) = StoreLocation(databasePath), path != ":memory:" {
            lock = try ServeLock(databasePath: path, now: SystemClock().now())
        }
        defer { lock?.release() }
        let store = try StoreOpening.open(databasePath, for: .daemon, log: log)
        var daemon = DaemonConfiguration(server: configuration, store: store,
                                         loadModel: { try ModelFiles.readAny(from: try source.directory()) })
        daemon.peers = (store as? PostgresStore).map { PostgresPeerChannel(store: $0, log: log) }
        daemon.plausibility.rewardWindow = try arguments.double("reward-window-days", in: 1...365)! * 86_400
        daemon.log = log
        if let path = arguments.string("access-log") {
            do { daemon.accessLog = try AccessLog(path: path) } catch { throw CLIError("--access-log: \(error)") }
        }
        defer { daemon.accessLog?.stop() }
        let running = try Daemon(daemon)
        var metrics: MetricsListener?
        if let text = arguments.string("metrics-listen") {
            metrics = try MetricsListener(address: try parseAddress(text),
                                          metrics: { MetricsText.render(running.metricFamilies()) },
                                          ready: { running.readiness() })
        }
        defer { metrics?.stop() }
        let bound = try running.start()
        if let metrics {
            metrics.start()
            output.out("metrics on http://\(metrics.address)/metrics\n")
        }
        for address in bound { output.out("listening on \(address)\n") }
        let example = bound.first.map { "--addr \($0) " } ?? ""
        let binary = CommandLine.arguments.first ?? "runus"
        output.out("model \(running.initialModelVersion); try: \(binary) call \(example)'{\"op\":\"missions.today\",\"user\":\"runner-0001\"}'\n")
        try running.run()
        try store.close()
        return .success
    }

    static func parseAddress(_ text: String) throws -> ServerAddress {
        do { return try ServerAddress(parsing: text) } catch { throw UsageError("\(error)") }
    }

    /// The token: the file's bytes without surrounding white space, at least 16 of them. The
    /// file must give group and others no access at all, as ssh demands of a private key
    /// (record 0513): a secret anyone on the machine can read is no secret.
    static func readToken(_ path: String) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CLIError("--token-file: cannot read \(path)") }
        let mode = Int(info.st_mode) & 0o7777
        if mode & 0o077 != 0 {
            let octal = String(mode, radix: 8)
            throw CLIError("--token-file: \(path) has mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal): "
                           + "group or others can access the token; run: chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("--token-file: cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError("--token-file: \(path) is not UTF-8") }
        let token = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard token.count >= 16 else {
            throw CLIError("--token-file: \(path) holds \(token.count) bytes, expected a token of at least 16")
        }
        let bits = tokenEntropyBits(token)
        guard bits >= minimumTokenBits, Set(token).count >= minimumTokenSymbols else {
            throw CLIError("--token-file: \(path) holds a guessable token (about \(Int(saturating: bits.rounded(.down))) bits: "
                           + "\(Set(token).count) different characters); at least \(minimumTokenSymbols) different and \(Int(saturating: minimumTokenBits)) bits are needed, e.g. "
                           + "head -c 32 /dev/urandom | base64 > \(path)")
        }
        return token
    }

    /// Least estimated entropy of a token, bits (record 0513): 32 random bytes in base64 score
    /// about 200 by this estimate, `password12345678` 62, a letter repeated 16 times 0.
    static let minimumTokenBits: Double = 64
    /// Least number of different bytes in a token: length alone makes a long token of a few
    /// symbols score high (forty digits from 0 to 4 score 93 bits).
    static let minimumTokenSymbols = 10

    /// The token's length times the Shannon entropy of its own byte frequencies, bits. It
    /// cannot see patterns (`abcdefghijklmnop` scores 64), but it refuses repeats and small
    /// alphabets, the mistakes of a hand-typed token.
    static func tokenEntropyBits(_ token: [UInt8]) -> Double {
        guard !token.isEmpty else { return 0 }
        var counts: [UInt8: Int] = [:]
        for byte in token { counts[byte, default: 0] += 1 }
        let n = Double(token.count)
        return counts.values.reduce(0) { sum, c in let p = Double(c) / n; return sum - Double(c) * log2(p) }
    }
}
