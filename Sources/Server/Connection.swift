#if canImport(Glibc)
import Glibc
#endif

/// One accepted client: line framing on input, a byte queue on output, and the backpressure
/// rule "answer (and read) only while pending output is under the high-water mark".
/// Confined to its loop's thread.
final class Connection: EventSource {
    let fd: Int32
    let id: UInt64
    var token: UInt64 = 0
    private unowned let server: LineServer
    private var framer: LineFramer
    private var output: [UInt8] = []
    /// First byte of `output` not yet sent.
    private var outputStart = 0
    private var registeredEvents: UInt32 = EpollBits.readable
    /// The peer will send nothing more.
    private var readEOF = false
    /// Answer no more lines; close once output is flushed (line too long, or server draining).
    private var closing = false
    private(set) var isClosed = false
    /// A `line_too_long` answer was queued: close by lingering, not at once (see `startLingering`).
    private var answeredTooLong = false
    /// Output is shut down; input is read and discarded until EOF or the linger deadline.
    private var lingering = false

    init(fd: Int32, id: UInt64, server: LineServer) {
        self.fd = fd
        self.id = id
        self.server = server
        self.framer = LineFramer(maximumLineBytes: server.configuration.maximumLineBytes)
    }

    private var pendingBytes: Int { output.count - outputStart }

    func handle(events: UInt32) {
        if lingering {
            discardInput()
            return
        }
        if events & (EpollBits.readable | EpollBits.hangUp | EpollBits.error) != 0, wantsRead {
            readOnce()
        }
        if isClosed { return }
        progress()
        // HUP/ERR: the socket can carry nothing more; whatever is left cannot be delivered.
        if !isClosed, events & (EpollBits.hangUp | EpollBits.error) != 0 { close() }
    }

    /// Stop answering; write what is pending, then close.
    func beginClosing() {
        guard !isClosed else { return }
        if lingering {
            close()
            return
        }
        closing = true
        progress()
    }

    private var wantsRead: Bool { !closing && !readEOF && pendingBytes < server.configuration.outputHighWaterBytes }

    private func readOnce() {
        let buffer = server.readBuffer
        do {
            guard let count = try Sys.read(fd, buffer.baseAddress!, buffer.count) else { return }
            if count == 0 { readEOF = true; return }
            framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        } catch {
            // ECONNRESET and friends: the client is gone, and so are its answers.
            close()
        }
    }

    /// Answers complete lines while output is under the high-water mark, flushes, and closes
    /// or re-arms epoll as the state requires.
    private func progress() {
        let highWater = server.configuration.outputHighWaterBytes
        var exhausted = false
        while true {
            while !closing, !exhausted, pendingBytes < highWater {
                switch framer.next() {
                case nil: exhausted = true
                case .line(let line)?:
                    if line.isEmpty { continue }  // blank lines are keep-alives, not requests
                    output.append(contentsOf: server.dispatch(line: line, connectionID: id))
                case .tooLong?:
                    let limit = server.configuration.maximumLineBytes
                    server.router.stats.record(op: Stats.invalidOp, ok: false)
                    output.append(contentsOf: Answer.line(Answer.failure(
                        id: .null, code: .lineTooLong,
                        message: "request line longer than \(limit) bytes; closing the connection")))
                    closing = true
                    answeredTooLong = true
                }
            }
            guard flush() else { return }
            // Flushing made room and lines remain: answer more now rather than wait for epoll.
            if closing || exhausted || pendingBytes >= highWater { break }
        }
        if pendingBytes == 0, closing || (readEOF && exhausted) {
            if answeredTooLong, !readEOF { startLingering() } else { close() }
            return
        }
        var wanted: UInt32 = 0
        if wantsRead { wanted |= EpollBits.readable }
        if pendingBytes > 0 { wanted |= EpollBits.writable }
        if wanted != registeredEvents {
            do {
                try server.loop.modify(fd, token: token, events: wanted)
                registeredEvents = wanted
            } catch {
                server.configuration.log("connection \(id): \(error); closing")
                close()
            }
        }
    }

    /// Sends as much as the socket takes. False when the connection had to be closed.
    private func flush() -> Bool {
        while outputStart < output.count {
            let sent: Int?
            do {
                sent = try output.withUnsafeBytes { raw in
                    try Sys.send(fd, raw.baseAddress! + outputStart, raw.count - outputStart)
                }
            } catch {
                // EPIPE/ECONNRESET: the client left mid-answer. Not our problem, not a crash.
                close()
                return false
            }
            guard let sent else { break }
            outputStart += sent
        }
        if outputStart == output.count {
            // Keep a modest buffer; give back one that a huge answer grew.
            if output.capacity > server.configuration.outputHighWaterBytes * 2 { output = [] } else {
                output.removeAll(keepingCapacity: true)
            }
            outputStart = 0
        } else if outputStart * 2 >= output.count {
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
        return true
    }

    /// Closing a socket whose receive queue still holds data makes the kernel send RST, and a
    /// client still writing its oversized line would then lose our `line_too_long` answer
    /// before reading it. So: shut our side, read and drop what still comes until the peer
    /// closes or `lingerTimeout` passes (Apache's "lingering close").
    private func startLingering() {
        lingering = true
        Sys.shutdownWrite(fd)
        do {
            try server.loop.modify(fd, token: token, events: EpollBits.readable)
            registeredEvents = EpollBits.readable
            server.linger(self)
        } catch {
            close()
        }
    }

    private func discardInput() {
        let buffer = server.readBuffer
        do {
            guard let count = try Sys.read(fd, buffer.baseAddress!, buffer.count) else { return }
            if count == 0 { close() }
        } catch {
            close()
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        server.loop.remove(fd, token: token)
        Sys.close(fd)
        server.connectionClosed(self)
    }
}
