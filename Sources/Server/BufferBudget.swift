import Synchronization

/// The daemon-wide cap on memory held for clients (record 0530): the capacity of every
/// connection's input buffer (`LineFramer`), output queue and answers waiting behind a running
/// request, summed over all loops in one atomic counter.
///
/// The rule, so that a flood of long partial lines cannot starve short requests:
/// - a connection whose pending input stays within `smallInputBytes` (one read) may grow it
///   while the total stays within `limit`;
/// - a longer partial line may grow only while the total stays within `largeInputLimit`
///   (three quarters of `limit`), so the last quarter is kept for short requests;
/// - input growth that would pass its bound is refused: the connection gets `unavailable` and
///   is closed (`Connection`);
/// - while the total is at or over `limit`, new requests are answered `unavailable` without
///   being run, and pushed lines that would queue close their watcher.
/// Output already computed is queued even when that passes the limit, so the total can exceed
/// it by at most the answers in flight; input never makes it pass the limit.
final class BufferBudget: Sendable {
    /// Bytes, > 0.
    let limit: Int
    /// Bound on the total for growing a partial line longer than `smallInputBytes`, in bytes.
    let largeInputLimit: Int
    /// Pending input up to this (bytes) counts as a short request.
    let smallInputBytes: Int
    private let held = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    init(limit: Int, smallInputBytes: Int) {
        precondition(limit > 0, "maximumBufferedBytes must be positive, got \(limit)")
        self.limit = limit
        self.largeInputLimit = limit - limit / 4
        self.smallInputBytes = smallInputBytes
    }

    /// Bytes held now, >= 0 once every connection has settled.
    var heldBytes: Int { held.load(ordering: .relaxed) }

    /// The most held at any moment since start, in bytes.
    var peakBytes: Int { peak.load(ordering: .relaxed) }

    /// At or over the limit: new work is refused.
    var isFull: Bool { heldBytes >= limit }

    /// Takes `bytes` (> 0) more for input that will then be `pendingInput` bytes long; false
    /// (and nothing taken) when that would pass the bound for its size.
    func reserveInput(_ bytes: Int, pendingInput: Int) -> Bool {
        let bound = pendingInput > smallInputBytes ? largeInputLimit : limit
        let after = held.add(bytes, ordering: .relaxed).newValue
        if after > bound {
            held.subtract(bytes, ordering: .relaxed)
            return false
        }
        notePeak(after)
        return true
    }

    /// Records a change of `delta` bytes (either sign) that needs no permission.
    func adjust(by delta: Int) {
        guard delta != 0 else { return }
        let after = held.add(delta, ordering: .relaxed).newValue
        if delta > 0 { notePeak(after) }
    }

    /// Runs only when a capacity grows (rare), never per request.
    private func notePeak(_ value: Int) {
        var seen = peak.load(ordering: .relaxed)
        while value > seen {
            let (exchanged, original) = peak.compareExchange(expected: seen, desired: value, ordering: .relaxed)
            if exchanged { return }
            seen = original
        }
    }
}
