#if canImport(Glibc)
import Glibc
#endif

/// One event loop, the thread that runs it, and the connections it owns (decision 0510).
/// Everything here except `adopt` (handed over with `loop.execute`) is confined to that thread.
final class ConnectionLoop: @unchecked Sendable {
    let index: Int
    let loop: EventLoop
    unowned let server: LineServer
    /// Scratch space every read on this loop lands in before the framer copies it.
    let readBuffer: UnsafeMutableRawBufferPointer
    private var connections: [UInt64: Connection] = [:]
    /// Connections in lingering close, by id, with their deadline (monotonic ns).
    private var lingerDeadlines: [UInt64: Int64] = [:]
    /// Connections paused after a failed `auth`, by id, with the end of the pause (monotonic ns).
    private var pauseDeadlines: [UInt64: Int64] = [:]
    /// Connections with complete lines left after their turn (`linesPerTurn`): served again
    /// after the next (non-waiting) epoll round.
    private var ready: [Connection] = []
    private(set) var draining = false
    private var drainDeadline: Int64 = 0
    private var nextIdleSweep: Int64 = 0

    init(index: Int, server: LineServer) throws {
        self.index = index
        self.server = server
        self.loop = try EventLoop()
        self.readBuffer = .allocate(byteCount: server.configuration.readChunkBytes, alignment: 16)
        self.preparation = server.configuration.roundPreparation
    }

    deinit { readBuffer.deallocate() }

    var configuration: ServerConfiguration { server.configuration }
    var connectionCount: Int { connections.count }

    /// Takes over an accepted descriptor (on this loop's thread).
    func adopt(fd: Int32, unix: Bool, id: UInt64) {
        if draining {
            server.connectionEnded(id: id)
            Sys.close(fd)
            return
        }
        let connection = Connection(fd: fd, id: id, unix: unix, context: self)
        do {
            connection.token = try loop.add(fd, events: EpollBits.readable, source: connection)
            connections[id] = connection
        } catch {
            configuration.log(ServerLog.line(.error, "watch_failed", ["connection": .number(Double(id)), "message": .string("\(error)")]))
            server.connectionEnded(id: id)
            Sys.close(fd)
        }
    }

    /// Serves until draining is over: every connection closed, or the drain deadline passed.
    /// `extraWork` runs after each round (loop 0 expires nothing else today).
    func run() throws {
        nextIdleSweep = Sys.monotonicNanoseconds() + sweepInterval
        while true {
            let now = Sys.monotonicNanoseconds()
            if draining, connections.isEmpty || drainDeadline <= now { break }
            var deadline = min(lingerDeadlines.values.min() ?? Int64.max, pauseDeadlines.values.min() ?? Int64.max,
                               nextIdleSweep)
            if draining { deadline = min(deadline, drainDeadline) }
            var timeout = Int32(clamping: (max(0, deadline - now) + 999_999) / 1_000_000)
            if !ready.isEmpty { timeout = 0 }
            try loop.runOnce(timeoutMilliseconds: timeout)
            if let preparation { serveRound(preparation) } else { serveReady() }
            expireLingering()
            endPauses()
            sweep()
        }
    }

    /// Stop answering new lines; finish what is pending until `deadline` (monotonic ns).
    func beginDraining(deadline: Int64) {
        guard !draining else { return }
        draining = true
        drainDeadline = deadline
        for connection in Array(connections.values) { connection.beginClosing() }
    }

    /// Closes every connection still open (after `run()` returned).
    func closeAll() {
        for connection in Array(connections.values) { connection.close() }
    }

    func scheduleAgain(_ connection: Connection) { ready.append(connection) }

    /// Connections read this round, answered in `serveRound` (only with a `roundPreparation`).
    private var round: [Connection] = []
    /// The server's `roundPreparation`, kept here: read at every event.
    private let preparation: (any RoundPreparation)?
    /// True when connections are answered once per round, after every read (record 0545).
    var preparesRounds: Bool { preparation != nil }

    func serveInRound(_ connection: Connection) { round.append(connection) }

    /// Shows the lines of every connection read this round (and of those whose turn ran out
    /// last round) to `preparation`, then answers them inside it.
    private func serveRound(_ preparation: any RoundPreparation) {
        guard !round.isEmpty || !ready.isEmpty else { return }
        var due = round
        round = []
        if !ready.isEmpty {
            // A connection read this round may also have a turn left over: serve it once.
            let read = Set(due.map(\.id))
            due += ready.filter { !read.contains($0.id) }
            ready = []
        }
        var lines: [[UInt8]] = []
        for connection in due { lines += connection.linesForRound(maximumBytes: preparation.maximumLineBytes) }
        var answered = false
        let answer = {
            guard !answered else { return }
            answered = true
            for connection in due { connection.serveRound() }
        }
        preparation.prepare(lines: lines, answer: answer)
        answer()  // a preparation that forgot to: nobody is left waiting
    }

    private func serveReady() {
        guard !ready.isEmpty else { return }
        let due = ready
        ready = []
        for connection in due where !connection.isClosed { connection.continueServing() }
    }

    func linger(_ connection: Connection) {
        lingerDeadlines[connection.id] = Sys.monotonicNanoseconds() + LineServer.nanoseconds(configuration.lingerTimeout)
    }

    private func expireLingering() {
        guard !lingerDeadlines.isEmpty else { return }
        let now = Sys.monotonicNanoseconds()
        for (id, deadline) in lingerDeadlines where deadline <= now { connections[id]?.close() }
    }

    /// Pauses `connection` (after a failed `auth`) until `deadline` (monotonic ns).
    func pause(_ connection: Connection, until deadline: Int64) {
        pauseDeadlines[connection.id] = deadline
    }

    private func endPauses() {
        guard !pauseDeadlines.isEmpty else { return }
        let now = Sys.monotonicNanoseconds()
        for (id, deadline) in pauseDeadlines where deadline <= now {
            pauseDeadlines[id] = nil
            connections[id]?.resume()
        }
    }

    /// How often idle connections and overdue lines are looked for: a quarter of the shorter
    /// of the idle timeout and the line deadline, 10 ms...1 s, so a connection is closed
    /// between 1× and 1.25× its limit (plus at most 1 s for long limits).
    private var sweepInterval: Int64 {
        let shorter = min(LineServer.nanoseconds(configuration.idleTimeout), LineServer.nanoseconds(configuration.lineDeadline),
                          LineServer.nanoseconds(configuration.writeDeadline))
        return min(1_000_000_000, max(10_000_000, shorter / 4))
    }

    /// Closes idle connections and those that stopped reading their answers (record 0555),
    /// expires overdue lines (record 0531), lets streams waiting on the memory cap try again,
    /// and writes the counts of suppressed log lines.
    private func sweep() {
        let now = Sys.monotonicNanoseconds()
        guard now >= nextIdleSweep else { return }
        nextIdleSweep = now + sweepInterval
        let idleLimit = LineServer.nanoseconds(configuration.idleTimeout)
        let lineLimit = LineServer.nanoseconds(configuration.lineDeadline)
        let writeLimit = LineServer.nanoseconds(configuration.writeDeadline)
        for connection in Array(connections.values) {
            if connection.sendIsOverdue(now: now, deadline: writeLimit) {
                connection.expireSend(now: now)
            } else if connection.lineIsOverdue(now: now, deadline: lineLimit) {
                connection.expireLine(now: now)
            } else if connection.isIdle(since: now - idleLimit) {
                configuration.log(ServerLog.line(.info, "idle_timeout", ["connection": .number(Double(connection.id))]))
                connection.close()
            } else {
                connection.retryStream()
            }
        }
        server.flushLimitedLogs(now: now)
    }

    func connectionClosed(_ connection: Connection) {
        connections[connection.id] = nil
        lingerDeadlines[connection.id] = nil
        pauseDeadlines[connection.id] = nil
        server.connectionEnded(id: connection.id)
    }

    /// Queues a pushed line on one of this loop's connections (on the loop thread).
    func push(_ line: [UInt8], to id: UInt64) {
        connections[id]?.push(line)
    }
}
