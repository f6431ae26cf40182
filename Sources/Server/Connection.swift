#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// One accepted client: line framing on input, a byte queue on output, and the backpressure
/// rule "answer (and read) only while pending output is under the high-water mark".
/// Confined to its loop's thread.
///
/// Answers leave in request order. Inline operations are answered at once; an offloaded one
/// takes a slot that later lines queue behind (`slots`), and the pool hands its answer back
/// with `loop.execute`. At most `maximumRequestsInFlight` slots exist; beyond, input waits.
/// `@unchecked Sendable`: worker closures carry it back to its loop (`loop.execute`) and touch
/// it only there.
final class Connection: EventSource, @unchecked Sendable {
    let fd: Int32
    let id: UInt64
    let isUnix: Bool
    var token: UInt64 = 0
    private unowned let context: ConnectionLoop
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
    /// TCP connections of a server with a token start unauthenticated.
    private var authenticated: Bool
    /// Requests taken off this connection so far (for request ids).
    private var requestCount: UInt64 = 0
    /// Answers not yet queued for output, in request order: nil while running on the pool.
    private var slots: [[UInt8]?] = []
    /// Request sequence number of `slots[0]`.
    private var slotBase: UInt64 = 0
    /// Monotonic ns of the last byte read or sent.
    private var lastActivity: Int64

    init(fd: Int32, id: UInt64, unix: Bool, context: ConnectionLoop) {
        self.fd = fd
        self.id = id
        self.isUnix = unix
        self.context = context
        self.framer = LineFramer(maximumLineBytes: context.configuration.maximumLineBytes)
        self.authenticated = unix || context.configuration.authToken == nil
        self.lastActivity = Sys.monotonicNanoseconds()
    }

    private var configuration: ServerConfiguration { context.configuration }
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

    /// Called by the loop for a connection that used up its turn with lines left.
    func continueServing() { progress() }

    /// Stop answering; write what is pending (and what the pool still owes), then close.
    func beginClosing() {
        guard !isClosed else { return }
        if lingering {
            close()
            return
        }
        closing = true
        progress()
    }

    /// True when nothing was read or sent since `cutoff` (monotonic ns) and no request of this
    /// connection is running.
    func isIdle(since cutoff: Int64) -> Bool { lastActivity < cutoff && slots.allSatisfy { $0 != nil } }

    private var wantsRead: Bool {
        !closing && !readEOF && pendingBytes < configuration.outputHighWaterBytes
            && slots.count < configuration.maximumRequestsInFlight
    }

    private func readOnce() {
        let buffer = context.readBuffer
        do {
            guard let count = try Sys.read(fd, buffer.baseAddress!, buffer.count) else { return }
            if count == 0 { readEOF = true; return }
            lastActivity = Sys.monotonicNanoseconds()
            framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        } catch {
            // ECONNRESET and friends: the client is gone, and so are its answers.
            close()
        }
    }

    /// Answers up to `linesPerTurn` complete lines while output is under the high-water mark
    /// and slots are free, flushes, and closes or re-arms epoll as the state requires.
    private func progress() {
        let highWater = configuration.outputHighWaterBytes
        var exhausted = false
        var served = 0
        var turnOver = false
        while true {
            while !closing, !exhausted, pendingBytes < highWater, slots.count < configuration.maximumRequestsInFlight {
                if served == configuration.linesPerTurn { turnOver = true; break }
                switch framer.next() {
                case nil: exhausted = true
                case .line(let line)?:
                    if line.isEmpty { continue }  // blank lines are keep-alives, not requests
                    served += 1
                    take(line)
                case .tooLong?:
                    let limit = configuration.maximumLineBytes
                    context.server.router.stats.record(op: Stats.invalidOp, ok: false)
                    deliver(Answer.failureLine(
                        id: .null, code: .lineTooLong,
                        message: "request line longer than \(limit) bytes; closing the connection"))
                    closing = true
                    answeredTooLong = true
                }
            }
            guard flush() else { return }
            // Flushing made room and lines remain: answer more now rather than wait for epoll.
            if turnOver || closing || exhausted || pendingBytes >= highWater
                || slots.count >= configuration.maximumRequestsInFlight { break }
        }
        if turnOver { context.scheduleAgain(self) }
        if pendingBytes == 0, slots.isEmpty, closing || (readEOF && exhausted) {
            if answeredTooLong, !readEOF { startLingering() } else { close() }
            return
        }
        var wanted: UInt32 = 0
        if wantsRead { wanted |= EpollBits.readable }
        if pendingBytes > 0 { wanted |= EpollBits.writable }
        if wanted != registeredEvents {
            do {
                try context.loop.modify(fd, token: token, events: wanted)
                registeredEvents = wanted
            } catch {
                configuration.log(ServerLog.line(.error, "epoll_modify_failed", [
                    "connection": .number(Double(id)), "message": .string("\(error)")]))
                close()
            }
        }
    }

    /// Routes one request line: answers it inline, or starts it on the pool in a slot.
    private func take(_ line: ArraySlice<UInt8>) {
        requestCount += 1
        let started = Sys.monotonicNanoseconds()
        let server = context.server
        let router = server.router
        switch router.route(line, connectionID: id, requestNumber: requestCount, authenticated: authenticated) {
        case .answered(let bytes):
            deliver(bytes)
        case .auth(let requestIDValue, let token):
            deliver(authenticate(id: requestIDValue, token: token))
        case .call(let handler, let request):
            guard server.configuration.offloadedOperations.contains(request.op) else {
                deliver(router.finish(handler, request, startedAt: started))
                server.noteLatency(request, startedAt: started)
                return
            }
            let sequence = slotBase + UInt64(slots.count)
            slots.append(nil)
            let loop = context.loop
            server.workers.async {
                let answer = router.finish(handler, request, startedAt: started)
                server.noteLatency(request, startedAt: started)
                loop.execute { [self] in complete(sequence, answer) }
            }
        }
    }

    /// Queues an unsolicited line (a race event) and writes what it can. A client that lets
    /// `pushBacklogLimit` × the high-water mark pile up unread is a slow consumer: it is closed
    /// rather than allowed to hold memory or delay anyone (record 0516).
    func push(_ line: [UInt8]) {
        guard !isClosed, !closing, !lingering else { return }
        if pendingBytes + line.count > configuration.outputHighWaterBytes * Self.pushBacklogLimit {
            configuration.log(ServerLog.line(.warn, "slow_consumer_closed", ["connection": .number(Double(id))]))
            close()
            return
        }
        output.append(contentsOf: line)
        progress()
    }

    /// Multiple of `outputHighWaterBytes` a connection may fall behind on pushed lines.
    static let pushBacklogLimit = 4

    /// Queues `answer` for output behind any request still running.
    private func deliver(_ answer: [UInt8]) {
        if slots.isEmpty { output.append(contentsOf: answer) } else { slots.append(answer) }
    }

    /// An offloaded request finished (on the loop thread): release answers now in order.
    private func complete(_ sequence: UInt64, _ answer: [UInt8]) {
        guard !isClosed else { return }
        slots[Int(sequence - slotBase)] = answer
        while let first = slots.first, let ready = first {
            output.append(contentsOf: ready)
            slots.removeFirst()
            slotBase += 1
        }
        progress()
    }

    private func authenticate(id: EchoedID, token: JSONValue?) -> [UInt8] {
        if let expected = configuration.authToken, !isUnix {
            let given = token?.stringValue.map { Array($0.utf8) }
            guard let given, Self.constantTimeEqual(given, expected) else {
                context.server.router.stats.record(op: "auth", ok: false)
                configuration.log(ServerLog.line(.warn, "auth_failed", ["connection": .number(Double(self.id))]))
                return Answer.failureLine(id: id, code: .unauthorized, message: "auth: wrong or missing 'token'")
            }
            authenticated = true
        }
        context.server.router.stats.record(op: "auth", ok: true)
        return Answer.successLine(id: id, result: ["authenticated": true])
    }

    /// Compares without an early exit, so timing does not reveal the matching prefix length.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for i in 0..<min(a.count, b.count) { difference |= a[i] ^ b[i] }
        return difference == 0 && a.count == b.count
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
            lastActivity = Sys.monotonicNanoseconds()
        }
        if outputStart == output.count {
            // Keep a modest buffer; give back one that a huge answer grew.
            if output.capacity > configuration.outputHighWaterBytes * 2 { output = [] } else {
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
            try context.loop.modify(fd, token: token, events: EpollBits.readable)
            registeredEvents = EpollBits.readable
            context.linger(self)
        } catch {
            close()
        }
    }

    private func discardInput() {
        let buffer = context.readBuffer
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
        context.loop.remove(fd, token: token)
        Sys.close(fd)
        context.connectionClosed(self)
    }
}
