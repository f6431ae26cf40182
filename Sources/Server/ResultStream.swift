import RunusCore

/// A `result` value written in parts, for answers too large to hold whole (record 0555): the
/// connection asks for the next part only once its client has read the last ones, so a client
/// that does not read holds at most `outputHighWaterBytes` plus one part, and the memory cap
/// (record 0530) is honoured while the answer is made, not only after.
///
/// A stream is made by a handler on the worker pool and then driven by one connection, one part
/// at a time (never two at once), on pool threads: `@unchecked Sendable` implementations may keep
/// plain state.
public protocol ResultStream: AnyObject, Sendable {
    /// Appends the next part of the `result` value's JSON to `out` and returns true when more
    /// is to come, false when the value is complete. A part should be about `partBytes` bytes;
    /// one item that is longer (a run's track) may make it longer.
    ///
    /// Throwing after the first part cuts the answer short: its line is never finished and the
    /// connection is closed (record 0555), since the bytes already sent cannot be taken back.
    func writeNext(into out: inout [UInt8], partBytes: Int) throws -> Bool
}

/// One streamed answer as a connection drives it: the line's opening (`{"id":…,"ok":true,
/// "result":`), the stream's parts, and its end (`}` and LF), with the request's stats recorded
/// once it ends. Driven from one thread at a time (`@unchecked Sendable`).
final class StreamedAnswer: @unchecked Sendable {
    private let stream: any ResultStream
    let request: Request
    private let startedAt: Int64
    private let router: Router
    private var opened = false

    init(stream: any ResultStream, request: Request, startedAt: Int64, router: Router) {
        self.stream = stream
        self.request = request
        self.startedAt = startedAt
        self.router = router
    }

    /// One part of the answer line.
    enum Part {
        /// More is to come.
        case more([UInt8])
        /// The line's last bytes (with LF): the stream ended, or failed before anything was sent
        /// and this is its whole error line.
        case last([UInt8])
        /// The stream failed after its first part (counted and logged): the line cannot be
        /// finished, so the connection closes.
        case failed
    }

    /// The next part; the first one carries the line's opening.
    func next(partBytes: Int) -> Part {
        var out: [UInt8] = []
        out.reserveCapacity(partBytes + 64)
        let first = !opened
        if first {
            opened = true
            out.append(contentsOf: #"{"id":"#.utf8)
            out.append(contentsOf: request.echoedID.bytes)
            out.append(contentsOf: #","ok":true,"result":"#.utf8)
        }
        do {
            if try stream.writeNext(into: &out, partBytes: partBytes) { return .more(out) }
        } catch {
            if first { return .last(router.failureLine(error, request, startedAt: startedAt)) }
            router.streamFailed(request, error, startedAt: startedAt)
            return .failed
        }
        out.append(contentsOf: "}\n".utf8)
        let microseconds = Router.microseconds(since: startedAt)
        router.stats.record(op: request.op, ok: true, microseconds: microseconds)
        router.noteAccess(request, code: "ok", microseconds: microseconds)
        return .last(out)
    }
}
