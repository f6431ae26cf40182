import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `runus serve` child on a Unix socket, ready when constructed (it printed `listening`).
/// Its standard error goes to a file: the trap message and backtrace are read from there.
final class DaemonProcess: @unchecked Sendable {
    enum Status: Equatable, CustomStringConvertible {
        case running
        case exited(Int32)
        case signalled(Int32)

        var description: String {
            switch self {
            case .running: return "running"
            case .exited(let c): return "exited with status \(c)"
            case .signalled(let s): return "killed by signal \(s) (\(Self.signalName(s)))"
            }
        }

        static func signalName(_ s: Int32) -> String {
            [4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"][s] ?? "signal \(s)"
        }
    }

    let process = Process()
    let socket: String
    let stderrPath: String

    /// Starts `runus serve --db db --model model --unix socket` and waits (at most `startup`)
    /// for its `listening` line.
    init(runus: String, db: String, model: String, socket: String, stderrPath: String, startup: Double = 120) throws {
        self.socket = socket
        self.stderrPath = stderrPath
        unlink(socket)
        process.executableURL = URL(fileURLWithPath: runus)
        process.arguments = ["serve", "--db", db, "--create", "--model", model, "--unix", socket]
        var environment = ProcessInfo.processInfo.environment
        environment["OPENBLAS_NUM_THREADS"] = "1"
        // The runtime's backtracer prints the trap message and every thread's frames (file:line)
        // on stderr: crashes are deduplicated by the crashed thread's, hangs read the busy one.
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no,threads=all,registers=none,images=none"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let fd = output.fileHandleForReading.fileDescriptor
        var text = ""
        let deadline = Date().addingTimeInterval(startup)
        while !text.contains("listening") {
            let left = deadline.timeIntervalSinceNow
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&entry, 1, Int32(left * 1000)) > 0 else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw FuzzError("runus serve did not say 'listening' within \(Int(startup)) s")
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty {
                process.waitUntilExit()
                throw FuzzError("runus serve exited before listening (status \(process.terminationStatus)): \(text)\(stderrText().suffix(2000))")
            }
            text += String(decoding: data, as: UTF8.self)
        }
    }

    var pid: Int32 { process.processIdentifier }

    var status: Status {
        if process.isRunning { return .running }
        return process.terminationReason == .exit ? .exited(process.terminationStatus) : .signalled(process.terminationStatus)
    }

    /// The status once the process has ended, waiting at most `limit` seconds (the backtracer
    /// takes a moment to symbolicate before the process dies).
    func waitForExit(limit: Double) -> Status {
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return status
    }

    func signal(_ s: Int32) { if process.isRunning { kill(pid, s) } }

    /// Stops the daemon: SIGTERM, then SIGKILL after `grace` seconds.
    func stop(grace: Double = 30) -> Status {
        signal(SIGTERM)
        let s = waitForExit(limit: grace)
        if s == .running {
            signal(SIGKILL)
            return waitForExit(limit: 10)
        }
        return s
    }

    func stderrText() -> String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// Resident set size in kB (`VmRSS` in /proc/PID/status), nil once the process is gone.
    var rssKB: Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() }
    }
}
