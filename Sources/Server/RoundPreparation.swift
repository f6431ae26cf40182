/// Work a server does once per event-loop round for all the request lines the round is about
/// to answer, before it answers any of them (record 0545): one database read for a round's
/// requests instead of one per request.
///
/// The loop shows `prepare` every complete line of up to `maximumLineBytes` bytes that its
/// connections hold when the round's reads are over; every line answered inside `answer` was
/// read before `prepare` was called, so a read made in `prepare` is at least as recent as each
/// of their arrivals. Lines may be shown and then not answered this round (a connection's turn
/// ran out, or its output is full); lines longer than the limit are answered but not shown.
/// Called on the loop thread; `prepare` must call `answer` exactly once, on that thread.
public protocol RoundPreparation: Sendable {
    /// Longest line shown to `prepare`, in bytes (>= 0).
    var maximumLineBytes: Int { get }
    func prepare(lines: [[UInt8]], answer: () -> Void)
}
