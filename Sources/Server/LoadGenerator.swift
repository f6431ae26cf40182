#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// What `runus loadtest` sends: one request line, repeated, from `connections` sockets.
public struct LoadPlan: Sendable {
    public var address: ServerAddress
    /// The request line without its terminator.
    public var requestLine: [UInt8]
    /// Concurrent connections, 1...10_000.
    public var connections: Int
    /// How long requests are sent; answers to requests sent before the end are still awaited
    /// (up to `grace`).
    public var duration: Duration
    /// Requests per second over all connections, > 0: open loop (sent on schedule whether or
    /// not earlier answers came; latency counts from the intended send time, so a stalled
    /// server cannot hide its queue). nil: closed loop (each connection sends its next request
    /// when the previous answer arrives).
    public var rate: Double?
    /// Sent as `{"op":"auth","token":…}` on each TCP connection first, when set.
    public var authToken: String?
    /// Longest wait for outstanding answers after `duration`.
    public var grace: Duration = .seconds(5)
    /// A second replica: connections alternate between `address` and this one (record 0541).
    public var secondAddress: ServerAddress?
    /// Request lines (without terminators) sent in turn, in place of `requestLine` when not
    /// empty: distinct runs to ingest, many runners to ask for missions.
    public var requestLines: [[UInt8]] = []

    public init(address: ServerAddress, requestLine: [UInt8], connections: Int, duration: Duration, rate: Double? = nil) {
        self.address = address
        self.requestLine = requestLine
        self.connections = connections
        self.duration = duration
        self.rate = rate
    }
}

/// Throughput and latency of one load run. Latencies in milliseconds, exact (every sample kept).
public struct LoadReport: Sendable, Equatable {
    /// Answers received, >= 0.
    public var requests: Int
    /// Answers with `"ok":false`, plus requests never answered (connection lost or grace over).
    public var errors: Int
    /// From the first send to the last answer, in seconds.
    public var seconds: Double
    public var p50Ms: Double
    public var p90Ms: Double
    public var p99Ms: Double
    public var maxMs: Double

    /// Answers per second.
    public var throughputRPS: Double { seconds > 0 ? Double(requests) / seconds : 0 }

    /// `{"errors":…,"max_ms":…,"p50_ms":…,"p90_ms":…,"p99_ms":…,"requests":…,"seconds":…,"throughput_rps":…}`
    public var json: JSONValue {
        func r(_ v: Double, _ digits: Double) -> JSONValue { .number((v * digits).rounded() / digits) }
        return [
            "throughput_rps": r(throughputRPS, 10), "p50_ms": r(p50Ms, 1000), "p90_ms": r(p90Ms, 1000),
            "p99_ms": r(p99Ms, 1000), "max_ms": r(maxMs, 1000), "errors": .number(Double(errors)),
            "requests": .number(Double(requests)), "seconds": r(seconds, 1000),
        ]
    }

    /// The nearest-rank quantile `q` of `sorted` (ascending), in the samples' unit; 0 when empty.
    static func quantile(_ sorted: [Int64], _ q: Double) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = max(1, Int((q * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }
}

/// Drives one `LoadPlan` from the calling thread with one epoll loop over non-blocking sockets
/// (a thread per connection would measure the scheduler on this 2-core machine).
public enum LoadGenerator {
    public static func run(_ plan: LoadPlan) throws -> LoadReport {
        precondition((1...10_000).contains(plan.connections), "connections \(plan.connections) outside 1...10000")
        precondition(plan.rate.map { $0 > 0 } ?? true, "rate must be positive")
        Sys.ignoreSIGPIPE()
        let loop = try EventLoop()
        defer { loop.close() }
        var request = plan.requestLine
        request.append(0x0A)
        let state = LoadState()
        state.lines = plan.requestLines.map { $0 + [0x0A] }
        var clients: [LoadConnection] = []
        defer { clients.forEach { $0.close() } }
        for i in 0..<plan.connections {
            let address = i % 2 == 1 ? plan.secondAddress ?? plan.address : plan.address
            let client = try LoadConnection(address: address, request: request, state: state, loop: loop)
            clients.append(client)
            if let token = plan.authToken, case .tcp = address { try client.authenticate(token) }
        }
        for client in clients { client.token = try loop.add(client.fd, events: EpollBits.readable, source: client) }

        let start = Sys.monotonicNanoseconds()
        let end = start + LineServer.nanoseconds(plan.duration)
        state.sending = true
        state.closedLoop = plan.rate == nil
        if let rate = plan.rate {
            let interval = 1e9 / rate
            var sent: Int64 = 0
            while true {
                let now = Sys.monotonicNanoseconds()
                if now >= end { break }
                // Everything due by now, including what a slow round left behind.
                while true {
                    let due = start + Int64(Double(sent) * interval)
                    if due > now || due >= end { break }
                    clients[Int(sent % Int64(clients.count))].send(intendedAt: due)
                    sent += 1
                }
                // Rounded up: a wait under a millisecond sleeps one, not a spin that would take
                // a core from the server measured (each latency runs from its intended time).
                let next = start + Int64(Double(sent) * interval)
                try loop.runOnce(timeoutMilliseconds: Int32(clamping: (max(0, min(next, end) - now) + 999_999) / 1_000_000))
            }
        } else {
            for client in clients { client.send(intendedAt: start) }
            while Sys.monotonicNanoseconds() < end {
                let left = end - Sys.monotonicNanoseconds()
                try loop.runOnce(timeoutMilliseconds: Int32(clamping: max(0, left) / 1_000_000 + 1))
            }
        }
        state.sending = false
        let graceEnd = Sys.monotonicNanoseconds() + LineServer.nanoseconds(plan.grace)
        while clients.contains(where: { $0.outstanding > 0 }), Sys.monotonicNanoseconds() < graceEnd {
            try loop.runOnce(timeoutMilliseconds: 10)
        }
        let unanswered = clients.reduce(0) { $0 + $1.outstanding }
        let latencies = state.latencies.sorted()
        let last = max(state.lastAnswer, start + 1)
        return LoadReport(
            requests: latencies.count, errors: state.errors + unanswered, seconds: Double(last - start) / 1e9,
            p50Ms: Double(LoadReport.quantile(latencies, 0.5)) / 1e6, p90Ms: Double(LoadReport.quantile(latencies, 0.9)) / 1e6,
            p99Ms: Double(LoadReport.quantile(latencies, 0.99)) / 1e6, maxMs: Double(latencies.last ?? 0) / 1e6)
    }
}

/// What the connections of one run share (all on the generator's thread).
final class LoadState {
    var latencies: [Int64] = []
    var errors = 0
    var lastAnswer: Int64 = 0
    var sending = false
    var closedLoop = true
    /// Lines sent in turn by every connection (terminated); empty: each its own request.
    var lines: [[UInt8]] = []
    var nextLine = 0
    /// Where every read lands (one thread, one buffer).
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init() { latencies.reserveCapacity(1 << 20) }
    deinit { buffer.deallocate() }
}

/// One load connection: a queue of intended send times, answers matched in order.
final class LoadConnection: EventSource {
    let fd: Int32
    var token: UInt64 = 0
    private let request: [UInt8]
    private let state: LoadState
    private unowned let loop: EventLoop
    private var pendingOutput: [UInt8] = []
    private var sentAt: [Int64] = []
    private var sentHead = 0
    private var input: [UInt8] = []
    private var scanned = 0
    private var wantsWrite = false
    private var closed = false

    var outstanding: Int { closed ? 0 : sentAt.count - sentHead }

    init(address: ServerAddress, request: [UInt8], state: LoadState, loop: EventLoop) throws {
        self.request = request
        self.state = state
        self.loop = loop
        fd = try Sys.connectedSocket(to: address, timeout: .seconds(10))
    }

    /// Sends `auth` and waits (blocking, up to 10 s) for a successful answer.
    func authenticate(_ token: String) throws {
        var line = JSONWriter.bytes(["op": "auth", "token": .string(token)])
        line.append(0x0A)
        pendingOutput = line
        flush()
        while pendingOutput.count > 0 {
            _ = try Sys.poll(fd, events: Int16(POLLOUT), timeoutMilliseconds: 10_000)
            flush()
        }
        while true {
            if let newline = input.firstIndex(of: 0x0A) {
                let answer = try JSONParser.parse(input[..<newline])
                input.removeSubrange(0...newline)
                guard answer["ok"]?.boolValue == true else { throw ServerError.badAnswer("auth refused: \(JSONWriter.string(answer))") }
                return
            }
            guard try Sys.poll(fd, events: Int16(POLLIN), timeoutMilliseconds: 10_000) != 0 else {
                throw ServerError.timedOut("auth answer")
            }
            guard let n = try Sys.read(fd, state.buffer.baseAddress!, state.buffer.count), n > 0 else { continue }
            input.append(contentsOf: UnsafeRawBufferPointer(rebasing: state.buffer[0..<n]))
        }
    }

    func send(intendedAt time: Int64) {
        guard !closed else { return }
        sentAt.append(time)
        if state.lines.isEmpty {
            pendingOutput.append(contentsOf: request)
        } else {
            pendingOutput.append(contentsOf: state.lines[state.nextLine % state.lines.count])
            state.nextLine += 1
        }
        flush()
    }

    func handle(events: UInt32) {
        if events & EpollBits.writable != 0 { flush() }
        if events & (EpollBits.readable | EpollBits.hangUp | EpollBits.error) != 0 { readAnswers() }
    }

    private func readAnswers() {
        guard !closed else { return }
        let count: Int?
        do { count = try Sys.read(fd, state.buffer.baseAddress!, state.buffer.count) } catch { close(); return }
        guard let count else { return }
        if count == 0 { close(); return }
        input.append(contentsOf: UnsafeRawBufferPointer(rebasing: state.buffer[0..<count]))
        let now = Sys.monotonicNanoseconds()
        var start = 0
        var answered = 0
        while let newline = input[scanned...].firstIndex(of: 0x0A) {
            if Self.isError(input[start..<newline]) { state.errors += 1 }
            if sentHead < sentAt.count {
                state.latencies.append(now - sentAt[sentHead])
                sentHead += 1
            }
            answered += 1
            start = newline + 1
            scanned = start
        }
        if start > 0 {
            input.removeSubrange(0..<start)
            scanned -= start
            state.lastAnswer = now
        }
        scanned = input.count
        if sentHead > 1024, sentHead * 2 > sentAt.count {
            sentAt.removeSubrange(0..<sentHead)
            sentHead = 0
        }
        if state.closedLoop, state.sending { for _ in 0..<answered { send(intendedAt: now) } }
    }

    /// An answer is an error when its first `"ok":` is followed by `f` (answers have sorted
    /// keys, and quotes inside strings are escaped, so the first one is the envelope's).
    static func isError(_ line: ArraySlice<UInt8>) -> Bool {
        let key: [UInt8] = Array(#""ok":"#.utf8)
        var i = line.startIndex
        while i + key.count < line.endIndex {
            if line[i] == key[0], line[i..<(i + key.count)].elementsEqual(key) { return line[i + key.count] == UInt8(ascii: "f") }
            i += 1
        }
        return false
    }

    private func flush() {
        while !pendingOutput.isEmpty {
            let sent: Int?
            do { sent = try pendingOutput.withUnsafeBytes { try Sys.send(fd, $0.baseAddress!, $0.count) } } catch { close(); return }
            guard let sent else { break }
            pendingOutput.removeSubrange(0..<sent)
        }
        let want = !pendingOutput.isEmpty
        if want != wantsWrite, token != 0 {
            try? loop.modify(fd, token: token, events: EpollBits.readable | (want ? EpollBits.writable : 0))
            wantsWrite = want
        }
    }

    func close() {
        guard !closed else { return }
        if sentAt.count > sentHead { state.errors += sentAt.count - sentHead }
        closed = true
        if token != 0 { loop.remove(fd, token: token) }
        Sys.close(fd)
    }
}
