#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// `runus serve --metrics-listen HOST:PORT` (issue 53): a small HTTP/1.1 server for operators'
/// tools, apart from the line protocol. `GET /metrics` answers the Prometheus text format,
/// `GET /healthz` 200 while the process lives, `GET /readyz` 200 when `ready` says the daemon
/// can serve (its store answers, a model is loaded) and 503 with the reason otherwise. One
/// request per connection (`Connection: close`), served one at a time on a thread of its own
/// (a scrape every few seconds), each bounded: a head of at most 8 KiB within 2 s. A long-running
/// part with a `run()` and a clean `stop()`.
public final class MetricsListener: Sendable {
    /// Where it listens (a TCP port 0 resolved).
    public let address: ServerAddress
    private let fd: Int32
    private let metrics: @Sendable () -> String
    private let ready: @Sendable () -> (ready: Bool, reason: String)
    private let running = Atomic<Bool>(true)
    private let finished = Mutex<Bool>(false)

    /// Largest request head read, bytes.
    static let maximumHeadBytes = 8192
    /// How long a client may take to send its head, ms.
    static let headTimeoutMilliseconds: Int32 = 2000

    public init(address: ServerAddress, metrics: @escaping @Sendable () -> String,
                ready: @escaping @Sendable () -> (ready: Bool, reason: String)) throws {
        guard case .tcp = address else { throw ServerError.badAddress("\(address)", "a TCP HOST:PORT for --metrics-listen") }
        let socketAddress = try SocketAddress(address)
        let fd = try Sys.socket(domain: socketAddress.family, type: Int32(SOCK_STREAM.rawValue))
        do {
            try Sys.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, label: "SO_REUSEADDR")
            try Sys.bind(fd, socketAddress)
            try Sys.listen(fd, backlog: 64)
            guard case .tcp(let host, _) = address else { throw ServerError.badAddress("\(address)", "TCP") }
            self.address = .tcp(host: host, port: try Sys.localAddress(fd).port)
        } catch {
            Sys.close(fd)
            throw error
        }
        self.fd = fd
        self.metrics = metrics
        self.ready = ready
    }

    /// Serves until `stop()`; polls the listener every 200 ms so a stop is seen promptly.
    public func run() {
        while running.load(ordering: .relaxed) {
            guard (try? Sys.poll(fd, events: Int16(POLLIN), timeoutMilliseconds: 200)) ?? 0 != 0 else { continue }
            guard let client = try? Sys.accept(fd) else { continue }
            serve(client)
            Sys.close(client)
        }
        Sys.close(fd)
        finished.withLock { $0 = true }
    }

    /// Starts `run()` on a thread of its own.
    public func start() { Sys.spawnThread { [self] in run() } }

    public func stop() { running.store(false, ordering: .relaxed) }

    private func serve(_ client: Int32) {
        guard let head = readHead(client) else { return }
        let requestLine = head.split(separator: 0x0A, maxSplits: 1).first.map { Array($0) } ?? []
        let parts = requestLine.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        guard parts.count >= 2 else { return respond(client, 400, "text/plain", "bad request line\n") }
        guard parts[0] == "GET" || parts[0] == "HEAD" else { return respond(client, 405, "text/plain", "only GET\n") }
        let path = parts[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? parts[1]
        switch path {
        case "/metrics": respond(client, 200, "text/plain; version=0.0.4; charset=utf-8", metrics(), head: parts[0] == "HEAD")
        case "/healthz": respond(client, 200, "text/plain", "ok\n", head: parts[0] == "HEAD")
        case "/readyz":
            let (isReady, reason) = ready()
            respond(client, isReady ? 200 : 503, "text/plain", (isReady ? "ready" : "not ready: " + reason) + "\n", head: parts[0] == "HEAD")
        default: respond(client, 404, "text/plain", "not found: /metrics, /healthz, /readyz\n")
        }
    }

    /// The bytes up to the blank line ending the head; nil when the client is too slow, sends
    /// too much, or goes away.
    private func readHead(_ client: Int32) -> [UInt8]? {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        let deadline = Sys.monotonicNanoseconds() + Int64(Self.headTimeoutMilliseconds) * 1_000_000
        while head.count < Self.maximumHeadBytes {
            let left = Int32(clamping: max(0, deadline - Sys.monotonicNanoseconds()) / 1_000_000)
            guard left > 0, (try? Sys.poll(client, events: Int16(POLLIN), timeoutMilliseconds: left)) ?? 0 != 0 else { return nil }
            let read: Int?
            do { read = try chunk.withUnsafeMutableBytes { raw in try Sys.read(client, raw.baseAddress!, raw.count) } } catch { return nil }
            guard let n = read else { continue }  // not readable after all: poll again
            guard n > 0 else { return nil }
            head += chunk[0..<n]
            if Self.endsHead(head) { return head }
        }
        return nil
    }

    /// Whether the head is complete: a blank line (CRLF CRLF, or LF LF from a lax client).
    static func endsHead(_ bytes: [UInt8]) -> Bool {
        for i in bytes.indices where bytes[i] == 0x0A {
            if i >= 1, bytes[i - 1] == 0x0A { return true }
            if i >= 3, bytes[i - 1] == 0x0D, bytes[i - 2] == 0x0A, bytes[i - 3] == 0x0D { return true }
        }
        return false
    }

    private func respond(_ client: Int32, _ status: Int, _ type: String, _ body: String, head: Bool = false) {
        let reasons = [200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"]
        let bodyBytes = Array(body.utf8)
        var out = Array("HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\nContent-Type: \(type)\r\nContent-Length: \(bodyBytes.count)\r\nConnection: close\r\n\r\n".utf8)
        if !head { out += bodyBytes }
        var sent = 0
        let deadline = Sys.monotonicNanoseconds() + 2_000_000_000
        while sent < out.count, Sys.monotonicNanoseconds() < deadline {
            do {
                let n = try out.withUnsafeBytes { raw in try Sys.send(client, raw.baseAddress! + sent, raw.count - sent) }
                if let n { sent += n } else { _ = try? Sys.poll(client, events: Int16(POLLOUT), timeoutMilliseconds: 100) }
            } catch {
                return  // the client went away
            }
        }
    }
}
