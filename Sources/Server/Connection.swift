#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// One accepted client: line framing on input, a byte queue on output, and the backpressure
/// rule "answer (and read) only while pending output is under the high-water mark".
/// Confined to its loop's thread. The limits that keep one client from hurting the others
/// (memory cap, line deadline, auth throttle) are in `Connection+Limits.swift`.
///
/// Answers leave in request order. Inline operations are answered at once; an offloaded one
/// takes a slot that later lines queue behind (`slots`), and the pool hands its answer back
/// with `loop.execute`. A connection's requests run one after another (record 0532): while
/// one runs on the pool the connection takes no new line and is not read, so a read pipelined
/// behind a write of the same connection always sees it.
/// `@unchecked Sendable`: worker closures carry it back to its loop (`loop.execute`) and touch
/// it only there.
final class Connection: EventSource, @unchecked Sendable {
    let fd: Int32
    let id: UInt64
    let isUnix: Bool
    var token: UInt64 = 0
    unowned let context: ConnectionLoop
    var framer: LineFramer
    var output: [UInt8] = []
    /// First byte of `output` not yet sent.
    private var outputStart = 0
    private var registeredEvents: UInt32 = EpollBits.readable
    /// The peer will send nothing more.
    private var readEOF = false
    /// Answer no more lines; close once output is flushed (line too long, or server draining).
    var closing = false
    private(set) var isClosed = false
    /// A closing answer (`line_too_long`, `line_timeout`, `unavailable`, the last failed `auth`)
    /// was queued: close by lingering, not at once (see `startLingering`).
    var lingerOnClose = false
    /// Output is shut down; input is read and discarded until EOF or the linger deadline.
    private var lingering = false
    /// TCP connections of a server with a token start unauthenticated.
    var authenticated: Bool
    /// Failed `auth` attempts so far.
    var authFailures = 0
    /// Monotonic ns until which nothing is read or answered (after a failed `auth`); 0: none.
    var pausedUntil: Int64 = 0
    /// Requests taken off this connection so far (for request ids).
    private var requestCount: UInt64 = 0
    /// Answers not yet queued for output, in request order: nil while running on the pool.
    var slots: [[UInt8]?] = []
    /// Request sequence number of `slots[0]`.
    var slotBase: UInt64 = 0
    /// Bytes of the answers in `slots`.
    var waitingAnswerBytes = 0
    /// Bytes this connection has counted in the server's `BufferBudget`.
    var chargedBytes = 0
    /// Monotonic ns of the last byte read or sent.
    private var lastActivity: Int64
    /// Monotonic ns of the last read.
    private var lastReadAt: Int64 = 0
    /// Monotonic ns when the first byte of the pending partial line arrived; 0 when the framer
    /// holds no partial line (record 0531).
    var lineStartedAt: Int64 = 0
    /// Complete lines are left in the framer (a turn ran out, or backpressure): read no more
    /// until they are answered, so a fast pipeliner cannot grow the input buffer without bound.
    private var linesWaiting = false
    /// The answer being written part by part (record 0555); it holds `slots[0]` until its last
    /// part is queued.
    var stream: StreamedAnswer?
    /// The stream's next part is being made on the pool.
    var streamPartRunning = false
    /// Pushed lines that came while a streamed answer's line was half written: they follow its
    /// last part, so that no event lands inside an answer line. Counted in `waitingAnswerBytes`.
    var deferredPushes: [[UInt8]] = []
    /// A streamed answer has queued its first part and not yet its last.
    var streamLineOpen = false
    /// Monotonic ns since which pending output has been waiting for the client to read it
    /// (since the last byte sent); 0 when nothing is pending (the write deadline, record 0555).
    var sendWaitingSince: Int64 = 0

    init(fd: Int32, id: UInt64, unix: Bool, context: ConnectionLoop) {
        self.fd = fd
        self.id = id
        self.isUnix = unix
        self.context = context
        self.framer = LineFramer(maximumLineBytes: context.configuration.maximumLineBytes,
                                 retainedCapacity: context.configuration.readChunkBytes)
        self.authenticated = unix || context.configuration.authToken == nil
        self.lastActivity = Sys.monotonicNanoseconds()
    }

    var configuration: ServerConfiguration { context.configuration }
    var pendingBytes: Int { output.count - outputStart }

    func handle(events: UInt32) {
        if lingering {
            discardInput()
            return
        }
        if events & (EpollBits.readable | EpollBits.hangUp | EpollBits.error) != 0, wantsRead, !linesWaiting {
            readOnce()
        }
        if isClosed { return }
        if context.preparesRounds {
            // Answered after the round's reads, with the other connections' lines (record 0545).
            if let waiting = roundEvents {
                roundEvents = waiting | events
            } else {
                roundEvents = events
                context.serveInRound(self)
            }
            return
        }
        serve(events: events)
    }

    /// Answers what was read, then closes on HUP/ERR.
    private func serve(events: UInt32) {
        progress()
        // HUP/ERR: the socket can carry nothing more; whatever is left cannot be delivered.
        if !isClosed, events & (EpollBits.hangUp | EpollBits.error) != 0 { close() }
    }

    /// Epoll bits of this round while the connection waits for the round's answering pass; nil
    /// when it is not waiting.
    private var roundEvents: UInt32?

    /// The lines the round's answering pass may answer for this connection (see `progress`).
    func linesForRound(maximumBytes: Int) -> [[UInt8]] {
        guard !isClosed, !closing, pausedUntil == 0, slots.isEmpty,
              pendingBytes < configuration.outputHighWaterBytes else { return [] }
        return framer.peekLines(limit: configuration.linesPerTurn, maximumBytes: maximumBytes)
    }

    /// The round's answering pass: what `handle` would have done at once, or (for a connection
    /// whose turn ran out last round) `continueServing`.
    func serveRound() {
        let events = roundEvents ?? 0
        roundEvents = nil
        guard !isClosed else { return }
        serve(events: events)
    }

    /// Called by the loop for a connection that used up its turn with lines left.
    func continueServing() { progress() }

    /// The server is stopping: every complete line already received is answered, the one
    /// running finishes, the others get `unavailable` without being run (issue 53); then what
    /// is pending is written (and what the pool still owes) and the connection closes.
    func beginClosing() {
        guard !isClosed else { return }
        if lingering {
            close()
            return
        }
        closing = true
        refuseReceivedLines()
        progress()
    }

    /// Answers each complete line left in the framer `unavailable` (with its id), in order
    /// behind any request still running; a partial line was never received and gets nothing.
    private func refuseReceivedLines() {
        let router = context.server.router
        while true {
            switch framer.next() {
            case .line(let line)?:
                if line.isEmpty { continue }
                deliver(router.refusalLine(for: line, code: .unavailable, message:
                    "the daemon is stopping: request not run; send it again once it is back (or to another replica)"))
            case .tooLong?, nil:
                return
            }
        }
    }

    /// True when nothing was read or sent since `cutoff` (monotonic ns) and no request of this
    /// connection is running.
    func isIdle(since cutoff: Int64) -> Bool { lastActivity < cutoff && slots.allSatisfy { $0 != nil } }

    /// True when the connection is read (and its lines answered) as soon as bytes come.
    var wantsRead: Bool {
        !closing && !readEOF && pausedUntil == 0 && pendingBytes < configuration.outputHighWaterBytes
            && slots.isEmpty
    }

    /// Waiting on the client to finish a line (the clock of the line deadline runs).
    var isWaitingForLine: Bool { lineStartedAt != 0 && !linesWaiting && wantsRead }

    private func readOnce() {
        let buffer = context.readBuffer
        do {
            guard let count = try Sys.read(fd, buffer.baseAddress!, buffer.count) else { return }
            if count == 0 { readEOF = true; return }
            let now = Sys.monotonicNanoseconds()
            lastActivity = now
            lastReadAt = now
            guard admitInput(count) else { return }
            if framer.bufferedByteCount == 0 { lineStartedAt = now }
            framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        } catch {
            // ECONNRESET and friends: the client is gone, and so are its answers.
            close()
        }
    }

    /// Answers up to `linesPerTurn` complete lines while output is under the high-water mark
    /// and slots are free, flushes, and closes or re-arms epoll as the state requires.
    func progress() {
        defer { if !isClosed { settleCharge() } }
        let highWater = configuration.outputHighWaterBytes
        var exhausted = false
        var served = 0
        var turnOver = false
        while true {
            while !closing, pausedUntil == 0, !exhausted, pendingBytes < highWater,
                  slots.isEmpty {
                if served == configuration.linesPerTurn { turnOver = true; break }
                switch framer.next() {
                case nil: exhausted = true
                case .line(let line)?:
                    // The bytes after this line came with the latest read, or later.
                    lineStartedAt = framer.bufferedByteCount > 0 ? lastReadAt : 0
                    if line.isEmpty { continue }  // blank lines are keep-alives, not requests
                    served += 1
                    take(line)
                case .tooLong?:
                    answerAndClose(Answer.failureLine(
                        id: .null, code: .lineTooLong,
                        message: "request line longer than \(configuration.maximumLineBytes) bytes; closing the connection"))
                }
            }
            guard flush() else { return }
            // Flushing made room and lines remain: answer more now rather than wait for epoll.
            if turnOver || closing || pausedUntil != 0 || exhausted || pendingBytes >= highWater
                || !slots.isEmpty { break }
        }
        linesWaiting = !exhausted
        if turnOver { context.scheduleAgain(self) }
        continueStream()
        if pendingBytes == 0, slots.isEmpty, closing || (readEOF && exhausted) {
            if lingerOnClose, !readEOF { startLingering() } else { close() }
            return
        }
        var wanted: UInt32 = 0
        if wantsRead { wanted |= EpollBits.readable }
        if pendingBytes > 0 { wanted |= EpollBits.writable }
        if wanted & EpollBits.readable != 0, registeredEvents & EpollBits.readable == 0, lineStartedAt != 0 {
            // Reading again after a pause of ours: the partial line's clock restarts, since the
            // client may have been unable to send while we did not read.
            lineStartedAt = Sys.monotonicNanoseconds()
        }
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
        if server.budget.isFull {
            refuseRequestForMemory()
            return
        }
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
            let sequence = slotBase &+ UInt64(slots.count)
            slots.append(nil)
            let loop = context.loop
            let partBytes = configuration.streamPartBytes
            server.workers.async {
                switch router.begin(handler, request, startedAt: started) {
                case .line(let answer):
                    server.noteLatency(request, startedAt: started)
                    loop.execute { [self] in complete(sequence, answer) }
                case .stream(let streamed):
                    let part = streamed.next(partBytes: partBytes)
                    loop.execute { [self] in receive(part, of: streamed, sequence: sequence) }
                }
            }
        }
    }

    /// Queues an unsolicited line (a race event) and writes what it can. A client that lets
    /// `pushBacklogLimit` × the high-water mark pile up unread is a slow consumer: it is closed
    /// rather than allowed to hold memory or delay anyone (record 0516).
    func push(_ line: [UInt8]) {
        guard !isClosed, !closing, !lingering else { return }
        let overCap = pendingBytes > 0 && context.server.budget.isFull
        let deferred = deferredPushes.reduce(0) { $0 + $1.count }
        if overCap || pendingBytes + deferred + line.count > configuration.outputHighWaterBytes * Self.pushBacklogLimit {
            configuration.log(ServerLog.line(.warn, "slow_consumer_closed", [
                "connection": .number(Double(id)), "reason": .string(overCap ? "buffer_cap" : "backlog")]))
            close()
            return
        }
        if streamLineOpen {
            deferredPushes.append(line)
            waitingAnswerBytes += line.count
            settleCharge()
            return
        }
        output.append(contentsOf: line)
        progress()
    }

    /// Multiple of `outputHighWaterBytes` a connection may fall behind on pushed lines.
    static let pushBacklogLimit = 4

    /// Ends the connection with one error line for something that was not a request (counted
    /// under `(invalid)`): pending input is dropped, and once the line is written the close
    /// lingers (`startLingering`) so the client can read it.
    func answerAndClose(_ answer: [UInt8]) {
        context.server.router.stats.record(op: Stats.invalidOp, ok: false)
        framer.discardAll()
        deliver(answer)
        closing = true
        lingerOnClose = true
    }

    /// Queues `answer` for output behind any request still running.
    func deliver(_ answer: [UInt8]) {
        if slots.isEmpty {
            output.append(contentsOf: answer)
        } else {
            slots.append(answer)
            waitingAnswerBytes += answer.count
        }
        settleCharge()  // at once: the next request of this turn checks the cap
    }

    /// An offloaded request finished (on the loop thread): release answers now in order.
    private func complete(_ sequence: UInt64, _ answer: [UInt8]) {
        guard !isClosed else { return }
        // `sequence` is one this connection handed out, so it lies within the slots.
        let index = Int(truncatingIfNeeded: sequence &- slotBase)
        guard slots.indices.contains(index) else { return }
        let admitted = admit(answer)
        slots[index] = admitted
        waitingAnswerBytes += admitted.count
        releaseReadyAnswers()
        progress()
    }

    /// Moves the answers at the head of `slots` that are ready to the output, in order.
    func releaseReadyAnswers() {
        while let first = slots.first, let ready = first {
            output.append(contentsOf: ready)
            waitingAnswerBytes -= ready.count
            slots.removeFirst()
            slotBase &+= 1
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
            lastActivity = Sys.monotonicNanoseconds()
            sendWaitingSince = 0
        }
        if outputStart < output.count, sendWaitingSince == 0 { sendWaitingSince = Sys.monotonicNanoseconds() }
        if outputStart == output.count {
            sendWaitingSince = 0
            // Keep a modest buffer (one read's worth); give back one that a big answer grew, so
            // an idle connection holds little of the memory cap (record 0530).
            if output.capacity > configuration.readChunkBytes { output = [] } else {
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
        framer.discardAll()
        output = []
        settleCharge()
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
        // Pool work may keep this object alive a while: let go of the memory now.
        framer.discardAll()
        output = []
        slots = []
        deferredPushes = []
        waitingAnswerBytes = 0
        settleCharge()
        context.connectionClosed(self)
    }
}
