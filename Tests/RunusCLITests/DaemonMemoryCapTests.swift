import Foundation
import RunusCore
import Server
import Storage
import Testing
@testable import Service
@testable import ModelStore
@testable import RunusCLI

/// Many Unix-socket connections, each sending one unterminated line, multiplexed on one thread
/// with poll(2): the memory attack of issue 22. A connection ends `refused` (the daemon
/// answered, e.g. `unavailable`, and closed), or `held` (everything sent and read by the
/// daemon: SIOCOUTQ, the bytes the peer has not read, is 0).
struct PartialLineFlood {
    struct Outcome {
        var held = 0
        /// Answers received, by error code.
        var refusedBy: [String: Int] = [:]
        /// What went wrong otherwise (connection closed without an answer, a bad answer).
        var problems: [String] = []
        var refused: Int { refusedBy.values.reduce(0, +) }
    }

    private enum State { case sending(Int), sent, held, done }

    let payload: [UInt8]
    private(set) var fds: [Int32] = []
    private var states: [State] = []
    private var received: [[UInt8]] = []

    /// Connects `count` clients to `path` (blocking connects, so a full backlog waits).
    init(path: String, count: Int, lineBytes: Int) throws {
        payload = [UInt8](repeating: UInt8(ascii: "x"), count: lineBytes)
        for _ in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw CLIError("socket: errno \(errno)") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)))
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else { close(fd); throw CLIError("connect \(path): errno \(errno)") }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            fds.append(fd)
            states.append(.sending(0))
            received.append([])
        }
    }

    /// Sends every line and waits until each connection is held or refused, or `limit` passes.
    mutating func run(limit: Duration) -> Outcome {
        var outcome = Outcome()
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var open: [Int] = []
            var polls: [pollfd] = []
            for (k, state) in states.enumerated() {
                switch state {
                case .sending: polls.append(pollfd(fd: fds[k], events: Int16(POLLIN | POLLOUT), revents: 0))
                case .sent: polls.append(pollfd(fd: fds[k], events: Int16(POLLIN), revents: 0))
                case .held, .done: continue
                }
                open.append(k)
            }
            if open.isEmpty { break }
            _ = poll(&polls, nfds_t(polls.count), 10)
            for (i, k) in open.enumerated() {
                let events = polls[i].revents
                if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    let n = read(fds[k], &buffer, buffer.count)
                    if n > 0 {
                        received[k] += buffer[0..<n]
                        guard let newline = received[k].firstIndex(of: 0x0A) else { continue }
                        let code = (try? JSONParser.parse(received[k][..<newline]))?["error"]?["code"]?.stringValue ?? "unreadable"
                        outcome.refusedBy[code, default: 0] += 1
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        outcome.problems.append("connection \(k): closed without an answer (read \(n), errno \(errno))")
                    } else {
                        continue
                    }
                    close(fds[k])
                    states[k] = .done
                    continue
                }
                if case .sending(let offset) = states[k], events & Int16(POLLOUT) != 0 {
                    let sent = payload.withUnsafeBytes { send(fds[k], $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                    if sent > 0 { states[k] = offset + sent == payload.count ? .sent : .sending(offset + sent) }
                }
            }
            for k in open {
                if case .sent = states[k], unreadBytes(fds[k]) == 0 {
                    states[k] = .held
                    outcome.held += 1
                }
            }
        }
        for (k, state) in states.enumerated() {
            if case .sending(let offset) = state { outcome.problems.append("connection \(k): still sending at \(offset) bytes") }
            if case .sent = state { outcome.problems.append("connection \(k): the daemon never read its last bytes") }
        }
        return outcome
    }

    func closeAll() {
        for (k, fd) in fds.enumerated() {
            if case .done = states[k] { continue }
            close(fd)
        }
    }

    /// Bytes the peer has not read from a Unix stream socket (SIOCOUTQ).
    private func unreadBytes(_ fd: Int32) -> Int32 {
        var queued: Int32 = 0
        return ioctl(fd, UInt(0x5411 /* SIOCOUTQ */), &queued) == 0 ? queued : -1
    }
}

@Suite("daemon memory cap under a partial-line flood", .serialized)
struct DaemonMemoryCapTests {
    static let connections = 1_000
    /// The longest line the default `--max-line-bytes` accepts, unfinished.
    static let lineBytes = 4 * 1024 * 1024 - 1
    /// The default `--max-buffered-bytes` (record 0530).
    static let cap = 256 * 1024 * 1024
    /// Peak memory beyond the cap and the baseline the daemon may take: the allocator's slack
    /// on the buffers and per-connection bookkeeping (1,000 Connection objects, epoll entries,
    /// the 64 KiB read buffer of each loop). Measured peak: 189 MiB over the baseline, the 47
    /// lines held (record 0530).
    static let tolerance = 16 * 1024 * 1024
    /// RSS over the baseline once every flood connection is closed: the bookkeeping malloc
    /// keeps for reuse. Measured: under 1 MiB.
    static let returnedSlack = 8 * 1024 * 1024

    @Test("1,000 connections holding partial 4 MiB lines: the daemon's peak RSS stays under the cap plus its baseline, and health is still answered")
    func flood() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let needed = rlim_t(Self.connections + 256)
        if limit.rlim_cur < needed, limit.rlim_max >= needed {
            limit.rlim_cur = needed
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        try #require(limit.rlim_cur >= needed, "the descriptor limit \(limit.rlim_cur) is under the \(needed) this test needs")
        let dir = TemporaryDirectory("memcap")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        try SQLiteStore(path: db).close()
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "memcap-1"), card: "test", to: dir.file("model"))
        let daemon = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("m.sock"))
        let probe = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        #expect(try probe.call(["op": "health"])["ok"] == true)
        let baseline = try #require(daemon.memory("VmRSS"))

        let started = ContinuousClock.now
        var flood = try PartialLineFlood(path: daemon.socket, count: Self.connections, lineBytes: Self.lineBytes)
        let outcome = flood.run(limit: .seconds(180))
        let elapsed = ContinuousClock.now - started
        let peak = try #require(daemon.memory("VmHWM"))
        let now = try #require(daemon.memory("VmRSS"))

        #expect(outcome.problems.isEmpty, "\(outcome.problems.prefix(5))")
        #expect(outcome.held + outcome.refused == Self.connections)
        #expect(outcome.held >= 1, "no partial line was kept at all")
        #expect(outcome.refusedBy.keys.allSatisfy { $0 == "unavailable" }, "\(outcome.refusedBy)")
        #expect(peak - baseline < Self.cap + Self.tolerance,
                "peak RSS \(peak) is \(peak - baseline) over the baseline \(baseline)")
        // Held lines use at most three quarters of the cap; the rest serves short requests.
        let fresh = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        #expect(try fresh.call(["op": "health", "id": 1])["ok"] == true)
        #expect(try probe.call(["op": "health", "id": 2])["ok"] == true)
        // Closing the held connections gives their memory back to the system, not only to malloc.
        flood.closeAll()
        let returnedBy = ContinuousClock.now + .seconds(10)
        var after = now
        while after - baseline >= Self.returnedSlack, ContinuousClock.now < returnedBy {
            usleep(10_000)
            after = daemon.memory("VmRSS") ?? after
        }
        #expect(after - baseline < Self.returnedSlack, "RSS \(after) after the flood closed, baseline \(baseline)")
        _ = (elapsed, now)  // figures for record 0530: print them when measuring
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == .exited(0))
    }

    @Test("serve's --max-buffered-bytes and --line-deadline reach the server; a cap under twice the line limit is refused")
    func flags() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("limits")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        try SQLiteStore(path: db).close()
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "limits-1"), card: "test", to: dir.file("model"))
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["serve", "--db", db, "--model", dir.file("model"), "--unix", dir.file("x.sock"),
                                            "--max-line-bytes", "1048576", "--max-buffered-bytes", "2000000"], output: out)
        #expect(code == .usage)
        #expect(out.stderr.contains("--max-buffered-bytes: 2000000 is less than twice --max-line-bytes 1048576"), "\(out.stderr)")

        let daemon = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("l.sock"),
                                     extraArguments: ["--max-line-bytes", "1048576", "--max-buffered-bytes", "2097152",
                                                      "--line-deadline", "0.5"])
        // A 1,000,000-byte partial line takes 1 MiB of the 1.5 MiB long-line share; a second
        // one does not fit.
        let partial = [UInt8](repeating: UInt8(ascii: "x"), count: 1_000_000)
        let first = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        try first.sendRaw(partial)
        let second = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        try? second.sendRaw(partial)  // the daemon may close before it has all
        let refused = try second.readAnswer()
        #expect(refused.errorCode == "unavailable", "\(refused)")
        #expect(refused["error"]?["message"]?.stringValue?.contains("--max-buffered-bytes 2097152") == true, "\(refused)")
        // The held line never ends: line_timeout after the half-second deadline.
        let timedOut = try first.readAnswer()
        #expect(timedOut.errorCode == "line_timeout", "\(timedOut)")
        #expect(timedOut["error"]?["message"]?.stringValue?.contains("--line-deadline 0.5 s") == true, "\(timedOut)")
        #expect(try first.readLine() == nil)
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == .exited(0))
    }
}

