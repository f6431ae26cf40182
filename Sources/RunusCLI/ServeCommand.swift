import RunusCore
import Engine
import Server
import Storage
import Learning
#if canImport(Glibc)
import Glibc
#endif

/// `runus serve`: the daemon.
enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the line-delimited JSON protocol on TCP and/or a Unix socket."
    static let usage = "--db PATH --model DIR [--listen HOST:PORT] [--unix PATH] [--max-line-bytes N]"
    static let discussion = """
    One JSON object per line in both directions (docs/protocol.md). Prints one 'listening' line
    per address on stdout when ready. SIGTERM or SIGINT stops accepting, finishes pending answers
    and exits 0. The model's feature schema must match this build's, or the daemon refuses to start.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH", help: "Database (created if absent)."),
        .required("model", "DIR", help: "Model directory holding model.json."),
        .repeated("listen", "HOST:PORT", help: "TCP address; loopback only (default 127.0.0.1:7878 when no --unix)."),
        .optional("unix", "PATH", help: "Unix socket path (created with mode 0660)."),
        .value("max-line-bytes", "N", default: "4194304", help: "Longest accepted request line in bytes (1024-1073741824)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        var addresses = try arguments.strings("listen").map { text -> ServerAddress in
            let address = try parseAddress(text)
            if case .tcp(let host, _) = address, !["127.0.0.1", "localhost", "::1"].contains(host) {
                throw UsageError("--listen: \(text) is not a loopback address; non-loopback listening needs a token file (not available yet)")
            }
            return address
        }
        if let unix = arguments.string("unix") { addresses.append(.unix(path: unix)) }
        if addresses.isEmpty { addresses = [.tcp(host: "127.0.0.1", port: 7878)] }

        BLASThreads.useOne()  // one BLAS thread per request; parallelism from requests (record 0006)
        let artifact = try ModelFiles.read(from: try arguments.require("model"))
        let scorer = try LogisticScorer(artifact: artifact)
        let store = try SQLiteStore(path: try arguments.require("db"))
        let clock = SystemClock()
        let operations = DaemonOperations(store: store, scorer: scorer, artifact: artifact,
                                          clock: clock, startedAt: clock.now())
        let router = Router(log: { line in StandardStreams().err(line + "\n") })
        operations.register(on: router)

        var configuration = ServerConfiguration(addresses: addresses)
        configuration.maximumLineBytes = try arguments.int("max-line-bytes", in: 1024...(1 << 30))!
        let server = LineServer(configuration: configuration, router: router)
        server.installShutdownSignals { signal in StandardStreams().err("runus serve: signal \(signal), shutting down\n") }
        let bound = try server.start()
        for address in bound { output.out("listening on \(address)\n") }
        let example = bound.first.map { "--addr \($0) " } ?? ""
        let binary = CommandLine.arguments.first ?? "runus"
        output.out("model \(artifact.modelVersion); try: \(binary) call \(example)'{\"op\":\"missions.today\",\"user\":\"runner-0001\"}'\n")
        try server.run()
        try store.close()
        output.err("runus serve: stopped\n")
        return .success
    }

    static func parseAddress(_ text: String) throws -> ServerAddress {
        do { return try ServerAddress(parsing: text) } catch { throw UsageError("\(error)") }
    }
}
