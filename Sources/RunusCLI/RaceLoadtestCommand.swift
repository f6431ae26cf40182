import Foundation
import RunusCore
import Service
import Server

/// `runus race-loadtest`: many runners in many race rooms against a running daemon.
enum RaceLoadtestCommand: Command {
    static let name = "race-loadtest"
    static let abstract = "Load a daemon with live races: runners in rooms sending a point a second."
    static let usage = "[--addr ADDRESS] [--second-addr ADDRESS] [--rooms N] [--runners-per-room N] [--duration S] [--server-pid PID] [--json]"
    static let discussion = """
    Creates the rooms, upserts the runners, joins each on its own connection and watches its room,
    then sends one point per runner per second, spread evenly over each second. Reports the delay
    from sending a position to receiving the ranking it caused (pushed to the runner's own
    connection), and with --server-pid the daemon's CPU share over the run (utime + stime from
    /proc, as a fraction of one core).
    """
    static let parser = ArgumentParser(options: [
        .value("addr", "ADDRESS", default: "127.0.0.1:7878", help: "Daemon address."),
        .optional("second-addr", "ADDRESS", help: "A second replica: each runner sends to one and watches on the other."),
        .value("rooms", "N", default: "100", help: "Race rooms (1-1000)."),
        .value("runners-per-room", "N", default: "10", help: "Runners per room (1-1000)."),
        .value("duration", "S", default: "30", help: "Seconds of position traffic (1-3600)."),
        .optional("server-pid", "PID", help: "The daemon's process id, to report its CPU share."),
        .flag("json", help: "Print one JSON object."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let address = try ServeCommand.parseAddress(try arguments.require("addr"))
        var plan = RaceLoadPlan(address: address, rooms: try arguments.int("rooms", in: 1...1000)!,
                                runnersPerRoom: try arguments.int("runners-per-room", in: 1...1000)!,
                                duration: try arguments.double("duration", in: 1...3600)!)
        // Setup is three round trips per runner (upsert, join, watch), each join committed
        // (record 0526): leave 5 s plus 20 ms per runner, so joining never meets the start.
        plan.startDelay = 5 + 0.02 * Double(plan.rooms * plan.runnersPerRoom)
        plan.secondAddress = try arguments.string("second-addr").map(ServeCommand.parseAddress)
        let pid = try arguments.int("server-pid", in: 1...Int(Int32.max))
        let clock = SystemClock()
        // CPU is sampled around the traffic only (setup and joins excluded) by the generator's
        // own timing: read before the run, and after; the setup is a small part of a long run.
        let cpuBefore = pid.flatMap(cpuSeconds)
        let wallBefore = clock.now()
        let report = try RaceLoadGenerator.run(plan, wallClock: { clock.now() })
        let cpuAfter = pid.flatMap(cpuSeconds)
        let wall = clock.now() - wallBefore
        let share: Double? = cpuBefore.flatMap { before in cpuAfter.map { ($0 - before) / wall } }
        func r(_ x: Double) -> JSONValue { .number((x * 1000).rounded() / 1000) }
        func t(_ x: Double) -> String { "\((x * 1000).rounded() / 1000)" }
        var json: [String: JSONValue] = [
            "runners": .number(Double(plan.rooms * plan.runnersPerRoom)), "rooms": .number(Double(plan.rooms)),
            "positions_sent": .number(Double(report.positionsSent)), "updates_matched": .number(Double(report.updatesMatched)),
            "pushed_lines": .number(Double(report.pushedLines)), "errors": .number(Double(report.errors)),
            "p50_ms": r(report.p50Ms), "p90_ms": r(report.p90Ms), "p99_ms": r(report.p99Ms), "max_ms": r(report.maxMs),
            "seconds": r(report.seconds),
        ]
        if let share { json["server_cpu_share"] = r(share) }
        if arguments.flag("json") {
            output.out(JSONWriter.string(.object(json)) + "\n")
        } else {
            output.out("""
            \(plan.rooms * plan.runnersPerRoom) runners in \(plan.rooms) rooms for \(t(report.seconds)) s: \
            \(report.positionsSent) positions, \(report.updatesMatched) rankings matched, \(report.pushedLines) pushed lines, \
            \(report.errors) errors
            position → ranking received: p50 \(t(report.p50Ms)) ms, p90 \(t(report.p90Ms)) ms, p99 \(t(report.p99Ms)) ms, max \(t(report.maxMs)) ms
            """ + (share.map { "\nserver CPU share over the run: \(t($0)) of one core\n" } ?? "\n"))
        }
        return report.errors == 0 ? .success : .failure
    }

    /// utime + stime of a process in seconds, from /proc/PID/stat.
    static func cpuSeconds(_ pid: Int) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3; utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
