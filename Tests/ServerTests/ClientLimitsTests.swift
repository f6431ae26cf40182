import Foundation
import RunusCore
import Synchronization
import Testing
@testable import Server

/// Sends `bytes` one at a time, `interval` apart, on its own thread, until told to stop or the
/// server closes: a slow-loris client. Pacing the attack is what it does, not a wait for a result.
final class Trickler: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    let firstByteSent = Mutex<ContinuousClock.Instant?>(nil)

    init(_ client: LineClient, bytes: [UInt8], interval: Duration) {
        nonisolated(unsafe) let sender = client  // only this thread sends; the test only reads
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            for byte in bytes where !stopped.load(ordering: .relaxed) {
                do { try sender.sendRaw([byte]) } catch { return }
                firstByteSent.withLock { $0 = $0 ?? ContinuousClock.now }
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
            }
        }
    }

    func stop() -> Bool {
        stopped.store(true, ordering: .relaxed)
        return done.wait(timeout: .now() + .seconds(10)) == .success
    }
}

@Suite("line deadline (slow loris)")
struct LineDeadlineTests {
    static let deadline: Duration = .milliseconds(300)
    /// How late the close may come: the sweep runs every quarter of the deadline (75 ms here),
    /// plus scheduling on a machine shared with builds.
    static let lateness: Duration = .milliseconds(700)

    @Test("a client sending a byte every 20 ms gets line_timeout and EOF once the deadline passes, though it is never idle")
    func slowLoris() throws {
        let harness = try TestServer(configure: { $0.lineDeadline = Self.deadline })
        defer { harness.stop() }
        #expect(harness.server.configuration.idleTimeout == .seconds(300))
        let client = try harness.client()
        let line = Array(#"{"op":"health","pad":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 10_000)
        let trickler = Trickler(client, bytes: line, interval: .milliseconds(20))
        let answer = try client.readAnswer()  // bounded by the client's 10 s timeout
        let answeredAt = ContinuousClock.now
        #expect(answer.errorCode == "line_timeout", "\(answer)")
        #expect(answer["id"] == .null)
        #expect(try client.readLine() == nil)
        #expect(trickler.stop())
        let started = try #require(trickler.firstByteSent.withLock { $0 })
        let waited = answeredAt - started
        #expect(waited >= Self.deadline && waited < Self.deadline + Self.lateness, "closed after \(waited)")
    }

    @Test("the deadline is per line: a client whose every line ends in time is served for longer than the deadline")
    func perLine() throws {
        let harness = try TestServer(configure: { $0.lineDeadline = Self.deadline })
        defer { harness.stop() }
        let client = try harness.client()
        let started = ContinuousClock.now
        var i = 0
        // Each line is sent in two halves 60 ms apart; the whole exchange outlasts the deadline.
        while ContinuousClock.now - started < Self.deadline * 2 {
            try client.sendRaw(Array(#"{"op":"health","#.utf8))
            Thread.sleep(forTimeInterval: 0.06)
            try client.sendRaw(Array(#""id":\#(i)}"#.utf8) + [0x0A])
            let answer = try client.readAnswer()
            #expect(answer["ok"] == true && answer["id"] == .number(Double(i)), "\(answer)")
            i += 1
        }
        #expect(i >= 4)
    }

    @Test("a partial line waiting behind the server's own backpressure is not timed out")
    func notWhileTheServerIsBehind() throws {
        // A connection's requests run one after another (record 0532): while the slow one
        // runs, the next line's rest is not read, and its wait is the server's fault.
        let release = DispatchSemaphore(value: 0)
        let harness = try TestServer(configure: {
            $0.lineDeadline = Self.deadline
            $0.offloadedOperations = ["slow"]
        }, register: { router in
            router.register("slow") { _ in
                _ = release.wait(timeout: .now() + .seconds(10))
                return "done"
            }
        })
        defer { harness.stop() }
        let client = try harness.client()
        try client.sendRaw(Array(#"{"op":"slow","id":1}"#.utf8) + [0x0A] + Array(#"{"op":"health","#.utf8))
        // Hold the slow request for two deadlines; the server is not reading meanwhile.
        Thread.sleep(forTimeInterval: 0.6)
        release.signal()
        #expect(try client.readAnswer()["result"] == "done")
        try client.sendRaw(Array(#""id":2}"#.utf8) + [0x0A])
        #expect(try client.readAnswer()["id"] == 2)
    }
}

@Suite("auth throttle")
struct AuthThrottleTests {
    static let token = "0123456789abcdef0123"
    static let delay: Duration = .milliseconds(200)
    /// The gap a client sees between answers may be shorter than the server's pause by the time
    /// the first answer took to reach it.
    static let gapSlack: Duration = .milliseconds(40)

    /// A server with a token and the auth delay of this suite.
    static func server(delay: Duration = delay, logs: LogSink? = nil, logsPerSecond: Int = 10) throws -> TestServer {
        try TestServer(logs: logs, configure: {
            $0.authToken = Array(Self.token.utf8)
            $0.authFailureDelay = delay
            $0.clientEventLogsPerSecond = logsPerSecond
        })
    }

    @Test("three wrong tokens: each answered, the next line read only after the delay, the third closes the connection")
    func closesAfterThree() throws {
        let harness = try Self.server()
        defer { harness.stop() }
        let client = try harness.client()
        var batch = ""
        for i in 0..<10_000 { batch += #"{"op":"auth","id":\#(i),"token":"wrong-token-\#(i)"}"# + "\n" }
        // More than the socket buffers may take while the connection is paused: send from a
        // thread of its own (it fails with EPIPE or ECONNRESET once the server closes).
        nonisolated(unsafe) let sender = client
        let bytes = Array(batch.utf8)
        let writerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? sender.sendRaw(bytes)
            writerDone.signal()
        }
        defer { _ = writerDone.wait(timeout: .now() + .seconds(10)) }
        var times: [ContinuousClock.Instant] = []
        var answers: [JSONValue] = []
        for _ in 0..<3 {
            answers.append(try client.readAnswer())
            times.append(ContinuousClock.now)
        }
        #expect(answers.map(\.errorCode) == ["unauthorized", "unauthorized", "unauthorized"])
        #expect(answers.map { $0["id"] } == [0, 1, 2])
        #expect(answers[0]["error"]?["message"]?.stringValue?.contains("attempt 1 of 3") == true)
        #expect(answers[2]["error"]?["message"]?.stringValue?.contains("closing the connection") == true)
        for k in 1..<3 { #expect(times[k] - times[k - 1] >= Self.delay - Self.gapSlack, "gap \(k): \(times[k] - times[k - 1])") }
        // Closed: the other 9,997 are never answered (the server reads and drops them).
        #expect(try client.readLine() == nil)
        #expect(harness.server.router.stats.snapshot()["auth"] == Stats.Counts(requests: 3, errors: 3))
    }

    @Test("the right token after a wrong one works, after the delay")
    func rightTokenAfterWrong() throws {
        let harness = try Self.server()
        defer { harness.stop() }
        let client = try harness.client()
        #expect(try client.call(["op": "auth", "token": "not-the-token-at-all"]).errorCode == "unauthorized")
        #expect(try client.call(["op": "auth", "token": .string(Self.token)])["result"]?["authenticated"] == true)
        #expect(try client.call(["op": "health"])["ok"] == true)
    }

    @Test("auth_failed log lines are limited per second daemon-wide; the rest are counted, none lost")
    func logRateLimit() throws {
        let logs = LogSink()
        let perSecond = 5
        let harness = try Self.server(delay: .zero, logs: logs, logsPerSecond: perSecond)
        defer { harness.stop() }
        let started = ContinuousClock.now
        let connections = 20
        for c in 0..<connections {
            let client = try harness.client()
            for k in 0..<3 { try client.send(["op": "auth", "token": .string("wrong-\(c)-\(k)-xxxxxxxxxx")]) }
            for _ in 0..<3 { #expect(try client.readAnswer().errorCode == "unauthorized") }
            #expect(try client.readLine() == nil)
        }
        let elapsed = ContinuousClock.now - started
        func events(_ name: String) -> [JSONValue] {
            logs.all.compactMap { try? JSONParser.parse($0) }.filter { $0["event"]?.stringValue == name }
        }
        let written = events("auth_failed").count
        // Windows of one second: at most `perSecond` lines in each the burst touched.
        let windows = Int(elapsed / .seconds(1)) + 1
        #expect(written >= perSecond && written <= perSecond * windows, "\(written) lines in \(windows) windows")
        // The suppressed ones are counted once their window ends (a sweep within a second).
        let total = connections * 3
        let deadline = ContinuousClock.now + .seconds(5)
        var counted = 0
        repeat {
            counted = events("auth_failed_suppressed").reduce(0) { $0 + ($1["count"]?.intValue ?? 0) }
            if written + counted == total { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while ContinuousClock.now < deadline
        #expect(written + counted == total)
    }

    @Test("constant-time comparison: equal only for the same bytes, whatever the lengths", arguments: [
        ("0123456789abcdef", "0123456789abcdef", true),
        ("0123456789abcdeg", "0123456789abcdef", false),
        ("0123456789abcde", "0123456789abcdef", false),
        ("0123456789abcdef0", "0123456789abcdef", false),
        // Same bytes as the secret repeated: the wrap-around must not make it equal.
        ("0123456789abcdef0123456789abcdef", "0123456789abcdef", false),
        ("", "0123456789abcdef", false),
        ("", "", true),
        ("x", "", false),
    ])
    func constantTimeEqual(given: String, expected: String, equal: Bool) {
        #expect(Connection.constantTimeEqual(Array(given.utf8), Array(expected.utf8)) == equal)
    }
}

@Suite("LogRateLimiter")
struct LogRateLimiterTests {
    @Test("the first N per window are written, the rest counted and reported once")
    func windows() {
        var limiter = LogRateLimiter(perWindow: 2, windowNanoseconds: 1000)
        #expect(limiter.admit(now: 0) == (true, 0))
        #expect(limiter.admit(now: 10) == (true, 0))
        #expect(limiter.admit(now: 20) == (false, 0))
        #expect(limiter.admit(now: 999) == (false, 0))
        #expect(limiter.flush(now: 999) == nil)  // the window has not ended
        // The next window's first event reports the two suppressed.
        #expect(limiter.admit(now: 1000) == (true, 2))
        #expect(limiter.admit(now: 1001) == (true, 0))
        #expect(limiter.admit(now: 1002) == (false, 0))
        // Reported by the sweep instead, and then not again.
        #expect(limiter.flush(now: 2000) == 1)
        #expect(limiter.flush(now: 2001) == nil)
        #expect(limiter.admit(now: 5000) == (true, 0))
    }
}
