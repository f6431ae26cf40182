import Foundation
import RunusCore
import Server

/// `runus loadtest`: throughput and latency of one operation against a running daemon.
enum LoadtestCommand: Command {
    static let name = "loadtest"
    static let abstract = "Measure a daemon's throughput and latency for one operation."
    static let usage = "--addr ADDRESS [--second-addr ADDRESS] (--op OP [--params JSON] | --requests FILE) --connections N --duration S [--rate R] [--json]"
    static let discussion = """
    Sends {"op":OP, …PARAMS} from N connections for S seconds (or, with --requests, the file's
    lines in turn, one JSON request per line, starting again at the top when they run out). Without --rate each connection
    sends its next request when the previous answer arrives (closed loop); with --rate R, R
    requests per second are sent on schedule over all connections (open loop) and latency counts
    from the intended send time. Prints throughput and p50/p90/p99/max latency; --json prints one
    object {throughput_rps, p50_ms, p90_ms, p99_ms, max_ms, errors, requests, seconds}.
    Exits 1 if any request failed or went unanswered.
    """
    static let parser = ArgumentParser(options: [
        .value("addr", "ADDRESS", default: "127.0.0.1:7878", help: "Daemon address (host:port, unix:/path or /path)."),
        .optional("second-addr", "ADDRESS", help: "A second replica: connections alternate between the two."),
        .optional("op", "OP", help: "Operation to send."),
        .optional("requests", "FILE", help: "Request lines to send in turn instead of --op."),
        .value("params", "JSON", default: "{}", help: "Other request members, as a JSON object."),
        .value("connections", "N", default: "1", help: "Concurrent connections (1-10000)."),
        .value("duration", "S", default: "5", help: "Seconds of sending (0.1-3600)."),
        .optional("rate", "R", help: "Requests per second over all connections (open loop)."),
        .optional("token-file", "PATH", help: "Token to 'auth' with on TCP connections."),
        .flag("json", help: "Print one JSON object."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let address = try ServeCommand.parseAddress(try arguments.require("addr"))
        var lines: [[UInt8]] = []
        if let path = arguments.string("requests") {
            guard arguments.string("op") == nil else { throw UsageError("--op and --requests exclude each other") }
            guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("--requests: cannot read \(path)") }
            for (i, line) in data.split(separator: 0x0A).enumerated() where !line.isEmpty {
                guard case .object(let request)? = try? JSONParser.parse(Array(line)), request["op"]?.stringValue != nil else {
                    throw UsageError("--requests: line \(i + 1) of \(path) is not a JSON object with an 'op'")
                }
                lines.append(JSONWriter.bytes(.object(request)))
            }
            guard !lines.isEmpty else { throw UsageError("--requests: \(path) holds no request") }
        }
        let op: String
        if let given = arguments.string("op") {
            op = given
        } else if !lines.isEmpty {
            op = "requests"  // only a label: each line names its own
        } else {
            throw UsageError("--op or --requests is required")
        }
        let paramsText = try arguments.require("params")
        guard case .object(var members)? = try? JSONParser.parse(paramsText) else {
            throw UsageError("--params: '\(paramsText)' is not a JSON object")
        }
        members["op"] = .string(op)
        var plan = LoadPlan(address: address, requestLine: JSONWriter.bytes(.object(members)),
                            connections: try arguments.int("connections", in: 1...10_000)!,
                            duration: .milliseconds(Int64(try arguments.double("duration", in: 0.1...3600)! * 1000)),
                            rate: try arguments.double("rate", in: 0.001...10_000_000))
        plan.secondAddress = try arguments.string("second-addr").map(ServeCommand.parseAddress)
        plan.requestLines = lines
        if let path = arguments.string("token-file") {
            plan.authToken = String(decoding: try ServeCommand.readToken(path), as: UTF8.self)
        }
        let report: LoadReport
        do { report = try LoadGenerator.run(plan) } catch {
            throw CLIError("cannot load \(address): \(error) (is 'runus serve' running?)")
        }
        if arguments.flag("json") {
            output.out(JSONWriter.string(report.json) + "\n")
        } else {
            let mode = plan.rate.map { "open loop at \($0) req/s" } ?? "closed loop"
            output.out("""
            \(op) on \(address): \(plan.connections) connections, \(mode), \(String(format: "%.2f", report.seconds)) s
              throughput  \(String(format: "%.0f", report.throughputRPS)) req/s (\(report.requests) answers, \(report.errors) errors)
              latency ms  p50 \(f(report.p50Ms))  p90 \(f(report.p90Ms))  p99 \(f(report.p99Ms))  max \(f(report.maxMs))

            """)
        }
        return report.errors == 0 ? .success : .failure
    }

    private static func f(_ v: Double) -> String { String(format: "%.3f", v) }
}
