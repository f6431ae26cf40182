#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// A blocking client for the line protocol (what `runus call` and tests use). Every wait is
/// bounded by `timeout`. Not thread-safe: one client per thread.
///
///     let client = try LineClient(connectingTo: "unix:/run/runus.sock", timeout: .seconds(5))
///     let answer = try client.call(["op": "health", "id": 1])
public final class LineClient {
    public let address: ServerAddress
    /// Longest wait for connect, for each send and for each answer line.
    public var timeout: Duration
    /// Longest answer line accepted, in bytes (default 64 MiB).
    public var maximumAnswerBytes = 64 * 1024 * 1024
    private var fd: Int32
    /// The socket, for callers that multiplex several clients on one epoll loop (load tools).
    var fileDescriptor: Int32 { fd }
    private var input: [UInt8] = []
    private var inputStart = 0
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to `"host:port"`, `"unix:/path"` or `"/path"`.
    public convenience init(connectingTo text: String, timeout: Duration = .seconds(10)) throws {
        try self.init(address: ServerAddress(parsing: text), timeout: timeout)
    }

    public init(address: ServerAddress, timeout: Duration = .seconds(10)) throws {
        self.address = address
        self.timeout = timeout
        Sys.ignoreSIGPIPE()
        fd = try Sys.connectedSocket(to: address, timeout: timeout)
    }

    deinit { close() }

    /// Sends `bytes` as they are (no terminator added): for tests of framing.
    public func sendRaw<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
        let data = Array(bytes)
        var offset = 0
        try data.withUnsafeBytes { raw in
            while offset < raw.count {
                if let sent = try Sys.send(try openFD(), raw.baseAddress! + offset, raw.count - offset) {
                    offset += sent
                } else {
                    try wait(for: Int16(POLLOUT), "send to \(address)")
                }
            }
        }
    }

    /// Sends one line; adds "\n" unless the text already ends with one.
    public func send(line: String) throws {
        var bytes = Array(line.utf8)
        if bytes.last != 0x0A { bytes.append(0x0A) }
        try sendRaw(bytes)
    }

    /// Sends one JSON value as a line.
    public func send(_ request: JSONValue) throws {
        var bytes = JSONWriter.bytes(request)
        bytes.append(0x0A)
        try sendRaw(bytes)
    }

    /// The next line without its terminator (CRLF or LF), or nil when the server closed the
    /// connection cleanly between lines.
    public func readLine() throws -> [UInt8]? {
        while true {
            if let line = try bufferedLine() { return line }
            let count = try chunk.withUnsafeMutableBytes { raw -> Int in
                while true {
                    if let n = try Sys.read(try openFD(), raw.baseAddress!, raw.count) { return n }
                    try wait(for: Int16(POLLIN), "read answer from \(address)")
                }
            }
            if count == 0 {
                if input.count == inputStart { return nil }
                throw ServerError.connectionClosed("\(address) closed in the middle of an answer line")
            }
            input.append(contentsOf: chunk[0..<count])
        }
    }

    /// The next complete line already read, without its terminator; nil when none is complete.
    private func bufferedLine() throws -> [UInt8]? {
        if let newline = input[scanned...].firstIndex(of: 0x0A) {
            var end = newline
            if end > inputStart, input[end - 1] == 0x0D { end -= 1 }
            let line = Array(input[inputStart..<end])
            inputStart = newline + 1
            scanned = inputStart
            if inputStart * 2 >= input.count {
                input.removeSubrange(0..<inputStart)
                inputStart = 0
                scanned = 0
            }
            return line
        }
        scanned = input.count
        if input.count - inputStart > maximumAnswerBytes { throw ServerError.answerTooLong(maximumAnswerBytes) }
        return nil
    }

    /// What one `exchange` step did.
    public struct Exchange {
        /// Complete lines received, without terminators, in arrival order.
        public var lines: [[UInt8]] = []
        /// The server closed the connection (end of stream or reset); `lines` holds what came
        /// before. Bytes of an unfinished last line are dropped.
        public var closed = false
    }

    /// One step of a pipelining client that must never deadlock on the server's backpressure
    /// (the fuzzer, record 0540): waits at most `timeout` until the socket can take more of
    /// `output[sent...]` or has answers, sends what it takes (advancing `sent`), reads what is
    /// there, and returns the lines now complete. A blocking `send` could wait forever on a
    /// server that stopped reading until its answers are read.
    public func exchange(_ output: [UInt8], sent: inout Int, timeout: Duration) throws -> Exchange {
        var result = Exchange()
        while let line = try bufferedLine() { result.lines.append(line) }
        if !result.lines.isEmpty && sent == output.count { return result }
        let fd = try openFD()
        let wantsWrite = sent < output.count
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        let revents = try Sys.poll(fd, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0),
                                   timeoutMilliseconds: result.lines.isEmpty ? milliseconds : 0)
        if wantsWrite, revents & Int16(POLLOUT) != 0 {
            do {
                let count = min(output.count - sent, 256 * 1024)
                if let n = try output.withUnsafeBytes({ try Sys.send(fd, $0.baseAddress! + sent, count) }) { sent += n }
            } catch {
                result.closed = true  // EPIPE, ECONNRESET: the server is gone
            }
        }
        if revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
            do {
                let count = try chunk.withUnsafeMutableBytes { raw in try Sys.read(fd, raw.baseAddress!, raw.count) }
                if count == 0 { result.closed = true }
                if let count, count > 0 { input.append(contentsOf: chunk[0..<count]) }
            } catch {
                result.closed = true
            }
        }
        while let line = try bufferedLine() { result.lines.append(line) }
        return result
    }

    /// The next line parsed as JSON; closing before a line is `connectionClosed`.
    public func readAnswer() throws -> JSONValue {
        guard let line = try readLine() else {
            throw ServerError.connectionClosed("\(address) closed before answering")
        }
        do { return try JSONParser.parse(line) } catch { throw ServerError.badAnswer("\(error)") }
    }

    /// Sends one request and reads one answer.
    public func call(_ request: JSONValue) throws -> JSONValue {
        try send(request)
        return try readAnswer()
    }

    /// Tells the server no more requests will come (it still answers what it has).
    public func finishSending() {
        if fd >= 0 { Sys.shutdownWrite(fd) }
    }

    public func close() {
        if fd >= 0 { Sys.close(fd) }
        fd = -1
    }

    private func openFD() throws -> Int32 {
        guard fd >= 0 else { throw ServerError.connectionClosed("client for \(address) already closed") }
        return fd
    }

    private func wait(for events: Int16, _ what: String) throws {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        let revents = try Sys.poll(try openFD(), events: events, timeoutMilliseconds: milliseconds)
        if revents == 0 { throw ServerError.timedOut("\(what) after \(timeout)") }
    }
}
