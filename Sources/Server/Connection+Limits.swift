import RunusCore

/// The limits that keep one client from hurting the daemon or the others: the daemon-wide
/// memory cap (record 0530), the line deadline (0531) and the auth throttle (0513).
extension Connection {
    // MARK: memory cap

    /// Bytes of memory this connection holds for its client: buffer capacities, not contents.
    var heldBytes: Int { framer.capacity + output.capacity + waitingAnswerBytes }

    /// Brings the server's count up to date with `heldBytes`.
    func settleCharge() {
        let held = heldBytes
        context.server.budget.adjust(by: held - chargedBytes)
        chargedBytes = held
    }

    /// Before `count` bytes just read go into the framer: takes the memory they need from the
    /// budget. False when refused; the connection then gets `unavailable` and closes.
    func admitInput(_ count: Int) -> Bool {
        let growth = framer.capacity(afterAppending: count) - framer.capacity
        guard growth > 0 else { return true }
        let pending = framer.bufferedByteCount + count
        let budget = context.server.budget
        guard budget.reserveInput(growth, pendingInput: pending) else {
            refuseInputForMemory(pending: pending)
            return false
        }
        chargedBytes += growth
        return true
    }

    /// The partial line cannot grow: one `unavailable` line, then a lingering close. The
    /// requests answered before it were run; none after it was.
    private func refuseInputForMemory(pending: Int) {
        let budget = context.server.budget
        let bound = pending > budget.smallInputBytes ? budget.largeInputLimit : budget.limit
        answerAndClose(Answer.failureLine(id: .null, code: .unavailable, message:
            "the daemon's client buffers are full (\(budget.heldBytes) bytes held; a line of \(pending) bytes may grow "
            + "while they stay within \(bound) of --max-buffered-bytes \(budget.limit)); closing the connection, retry later"))
        context.server.logLimited(.bufferCap, [
            "connection": .number(Double(id)), "pending_bytes": .number(Double(pending)),
            "held_bytes": .number(Double(budget.heldBytes)),
        ])
    }

    /// Over the cap: a complete request is answered `unavailable` without being read or run
    /// (so its id is unknown: null). The connection stays open.
    func refuseRequestForMemory() {
        let budget = context.server.budget
        context.server.router.stats.record(op: Stats.invalidOp, ok: false, code: .unavailable)
        deliver(Answer.failureLine(id: .null, code: .unavailable, message:
            "the daemon's client buffers hold \(budget.heldBytes) bytes, at or over --max-buffered-bytes \(budget.limit); "
            + "request not run, retry later"))
    }

    /// An offloaded answer longer than one read that would take the client buffers past the cap
    /// is not queued: the client gets `unavailable` for it instead (record 0555). Writes answer
    /// in far less than a read, so a refused answer never hides a change that was made.
    func admit(_ answer: [UInt8]) -> [UInt8] {
        let budget = context.server.budget
        guard answer.count > budget.smallInputBytes, budget.heldBytes + answer.count > budget.limit else { return answer }
        context.server.logLimited(.bufferCap, [
            "connection": .number(Double(id)), "answer_bytes": .number(Double(answer.count)),
            "held_bytes": .number(Double(budget.heldBytes)),
        ])
        return Answer.failureLine(id: .null, code: .unavailable, message:
            "an answer of \(answer.count) bytes would take the daemon's client buffers (\(budget.heldBytes) bytes held) "
            + "past --max-buffered-bytes \(budget.limit); not sent, retry later")
    }

    // MARK: write deadline

    /// True when output has waited longer than `deadline` (ns) for the client to read any of it.
    func sendIsOverdue(now: Int64, deadline: Int64) -> Bool {
        sendWaitingSince != 0 && !isClosed && now - sendWaitingSince >= deadline
    }

    /// The client has not read its answers for the write deadline: it is cut off, with no
    /// last line (it is not reading), and the memory goes back to the cap (record 0555).
    func expireSend(now: Int64) {
        context.server.logLimited(.writeDeadline, [
            "connection": .number(Double(id)), "pending_bytes": .number(Double(pendingBytes)),
            "seconds": .number(Double((now - sendWaitingSince) / 1_000_000) / 1000),
        ])
        close()
    }

    // MARK: line deadline

    /// True when a partial line has been pending longer than `lineDeadline` while the server
    /// was reading this connection.
    func lineIsOverdue(now: Int64, deadline: Int64) -> Bool {
        isWaitingForLine && !isClosed && now - lineStartedAt >= deadline
    }

    /// The line took too long: one `line_timeout` line, then a lingering close.
    func expireLine(now: Int64) {
        let waited = Double((now - lineStartedAt) / 1_000_000) / 1000
        let pending = framer.bufferedByteCount
        lineStartedAt = 0
        answerAndClose(Answer.failureLine(id: .null, code: .lineTimeout, message:
            "request line not finished \(waited) s after its first byte (\(pending) bytes so far; --line-deadline "
            + "\(Double(LineServer.nanoseconds(configuration.lineDeadline) / 1_000_000) / 1000) s); closing the connection"))
        context.server.logLimited(.lineDeadline, [
            "connection": .number(Double(id)), "pending_bytes": .number(Double(pending)), "seconds": .number(waited),
        ])
        progress()
    }

    // MARK: auth

    /// Answers `auth`. A wrong token pauses the connection for `authFailureDelay`; the
    /// `maximumAuthFailures`-th closes it. The log line is rate-limited daemon-wide.
    func authenticate(id: EchoedID, token: JSONValue?) -> [UInt8] {
        let server = context.server
        if let expected = configuration.authToken, !isUnix {
            let source = Sys.peerSource(fd) ?? []
            let now = Sys.monotonicNanoseconds()
            if let wait = server.authThrottle.withLock({ $0.wait(source: source, now: now) }) {
                return refuseThrottled(id: id, wait: wait)
            }
            let given = token?.stringValue.map { Array($0.utf8) }
            guard let given, Self.constantTimeEqual(given, expected) else {
                server.authThrottle.withLock { $0.failed(source: source, now: now) }
                authFailures += 1
                server.router.stats.record(op: "auth", ok: false)
                server.logLimited(.authFailed, [
                    "connection": .number(Double(self.id)), "attempt": .number(Double(authFailures))])
                let limit = configuration.maximumAuthFailures
                if authFailures >= limit {
                    closing = true
                    lingerOnClose = true
                    return Answer.failureLine(id: id, code: .unauthorized, message:
                        "auth: wrong or missing 'token' (\(authFailures) failed attempts, the limit); closing the connection")
                }
                pausedUntil = Sys.monotonicNanoseconds() + LineServer.nanoseconds(configuration.authFailureDelay)
                context.pause(self, until: pausedUntil)
                return Answer.failureLine(id: id, code: .unauthorized, message:
                    "auth: wrong or missing 'token' (attempt \(authFailures) of \(limit); the next line is read after a delay)")
            }
            authenticated = true
        }
        server.router.stats.record(op: "auth", ok: true)
        return Answer.successLine(id: id, result: ["authenticated": true])
    }

    /// An `auth` from a source whose failures are spent (`AuthThrottle`): refused without the
    /// token being compared, counted as one of the connection's failures (so it still closes
    /// after `maximumAuthFailures`), and paused like a wrong token.
    private func refuseThrottled(id: EchoedID, wait: Int64) -> [UInt8] {
        let server = context.server
        authFailures += 1
        server.router.stats.record(op: "auth", ok: false)
        server.logLimited(.authFailed, [
            "connection": .number(Double(self.id)), "attempt": .number(Double(authFailures)), "throttled": true])
        let seconds = Double((wait + 999_999) / 1_000_000) / 1000
        let message = "auth: too many failed attempts from this address; the token was not checked, try again in \(seconds) s"
        if authFailures >= configuration.maximumAuthFailures {
            closing = true
            lingerOnClose = true
            return Answer.failureLine(id: id, code: .unauthorized, message: message + "; closing the connection")
        }
        pausedUntil = Sys.monotonicNanoseconds() + LineServer.nanoseconds(configuration.authFailureDelay)
        context.pause(self, until: pausedUntil)
        return Answer.failureLine(id: id, code: .unauthorized, message: message)
    }

    /// The pause after a failed `auth` is over: read and answer again.
    func resume() {
        guard !isClosed, pausedUntil != 0 else { return }
        pausedUntil = 0
        progress()
    }

    /// Compares in time that depends only on `given`'s length (the client's own input): no
    /// early exit at the first difference, and no loop bounded by the secret's length, so
    /// timing reveals neither the matching prefix nor how long the token is.
    static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        guard !expected.isEmpty else { return given.isEmpty }
        var difference = UInt(bitPattern: given.count ^ expected.count)
        var j = 0
        for i in 0..<given.count {
            difference |= UInt(given[i] ^ expected[j])
            // Wraps round the secret whatever its length; the comparison above already failed
            // when the lengths differ.
            j = j + 1 == expected.count ? 0 : j + 1
        }
        return difference == 0
    }
}
