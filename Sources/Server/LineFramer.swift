#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte stream into lines ended by LF; a CR just before the LF is dropped, so CRLF
/// works too. Pure state, no I/O, so tests can feed it at every chunk size.
///
/// A line is too long when its content (without LF and a final CR) exceeds `maximumLineBytes`.
/// The verdict does not depend on how the stream was chunked: an unfinished line is declared
/// too long as soon as no ending could bring it back under the limit. See
/// docs/decisions/0501-line-and-buffer-limits.md.
struct LineFramer {
    enum Frame: Equatable {
        /// One line without its terminator (may be empty).
        case line(ArraySlice<UInt8>)
        /// The next line exceeds the limit; the framer is now unusable (close the connection).
        case tooLong
    }

    /// Largest accepted line content in bytes, 1...Int.max.
    let maximumLineBytes: Int
    /// Capacity kept once the buffer holds no more than a quarter of it, in bytes (>= 0); more
    /// is given back, so a connection that once carried a 4 MiB line does not hold 4 MiB for
    /// ever (record 0530). Default 64 KiB, one read.
    let retainedCapacity: Int
    private var buffer: [UInt8] = []
    /// Start of the first unconsumed byte in `buffer`.
    private var start = 0
    /// Bytes before this index (from `start`) are known to hold no LF, so scans resume here.
    private var scanned = 0
    private(set) var failed = false

    init(maximumLineBytes: Int, retainedCapacity: Int = 64 * 1024) {
        precondition(maximumLineBytes > 0, "maximumLineBytes must be positive, got \(maximumLineBytes)")
        self.maximumLineBytes = maximumLineBytes
        self.retainedCapacity = max(0, retainedCapacity)
    }

    /// Bytes received but not yet returned as lines.
    var bufferedByteCount: Int { buffer.count - start }

    /// Bytes of memory the buffer holds (its capacity), what the daemon's memory cap counts.
    var capacity: Int { buffer.capacity }

    /// The capacity `append` of `count` bytes will leave: the current one when they fit once
    /// consumed bytes are dropped, else the grown one. Lets a caller ask for the memory first.
    func capacity(afterAppending count: Int) -> Int {
        let needed = bufferedByteCount + count
        return needed <= buffer.capacity ? buffer.capacity : grownCapacity(needed: needed, appending: count)
    }

    /// Doubling (amortised O(1) per byte), but never far past the longest line that can still
    /// be pending: a line longer than the limit fails, so more room would never be used.
    private func grownCapacity(needed: Int, appending count: Int) -> Int {
        let (doubled, overflow) = buffer.capacity.multipliedReportingOverflow(by: 2)
        return max(needed, min(overflow ? Int.max : doubled, maximumLineBytes &+ 1 &+ count))
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        makeRoom(for: bytes.count)
        buffer.append(contentsOf: bytes)
    }

    mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        makeRoom(for: bytes.count)
        buffer.append(contentsOf: bytes)
    }

    /// Drops every byte and all memory (the connection is closing or refused).
    mutating func discardAll() {
        buffer = []
        start = 0
        scanned = 0
    }

    /// The next complete line, `.tooLong`, or nil when more bytes are needed.
    mutating func next() -> Frame? {
        if failed { return .tooLong }
        let end = buffer.count
        let newline: Int? = buffer.withUnsafeBufferPointer { all in
            let from = scanned
            guard from < end, let base = all.baseAddress,
                  let hit = memchr(base + from, 0x0A, end - from) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        guard let newline else {
            scanned = end
            let pending = end - start
            // The final content will be >= pending, or pending - 1 if the last byte is a CR that
            // an LF then ends.
            let endsInCR = pending > 0 && buffer[end - 1] == 0x0D
            if pending > maximumLineBytes + (endsInCR ? 1 : 0) { return fail() }
            // Waiting for bytes: a good moment to give memory back.
            tidy()
            return nil
        }
        var contentEnd = newline
        if contentEnd > start, buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        if contentEnd - start > maximumLineBytes { return fail() }
        let line = buffer[start..<contentEnd]
        start = newline + 1
        scanned = start
        return .line(line)
    }

    /// Copies of the complete lines `next()` would return next, at most `limit` of them, leaving
    /// the framer as it is; a line longer than `maximumBytes` (or than the limit, which `next()`
    /// would refuse) is skipped. Each copy is without its terminator, like `next()`'s lines.
    func peekLines(limit: Int, maximumBytes: Int) -> [[UInt8]] {
        guard !failed, limit > 0 else { return [] }
        var lines: [[UInt8]] = []
        buffer.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            var from = start
            let end = all.count
            var seen = 0
            while seen < limit, from < end, let hit = memchr(base + from, 0x0A, end - from) {
                let newline = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var contentEnd = newline
                if contentEnd > from, all[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                let length = contentEnd - from
                if length > 0 {  // blank lines are keep-alives, not requests
                    seen += 1
                    if length <= maximumBytes, length <= maximumLineBytes {
                        lines.append(Array(UnsafeBufferPointer(rebasing: all[from..<contentEnd])))
                    }
                }
                from = newline + 1
            }
        }
        return lines
    }

    private mutating func fail() -> Frame {
        failed = true
        discardAll()
        return .tooLong
    }

    /// Before an append: drops consumed bytes when they are at least half the buffer (each
    /// byte moves O(1) times on average) or when that avoids growing, then grows if needed.
    private mutating func makeRoom(for count: Int) {
        if start > 0, start * 2 >= buffer.count || buffer.count + count > buffer.capacity { dropConsumed() }
        let needed = buffer.count + count
        if needed > buffer.capacity { buffer.reserveCapacity(grownCapacity(needed: needed, appending: count)) }
    }

    /// Gives back capacity over `retainedCapacity` that the pending bytes no longer need (they
    /// fill a quarter of it or less), and drops consumed bytes.
    private mutating func tidy() {
        let pending = bufferedByteCount
        if buffer.capacity > retainedCapacity, pending * 4 <= buffer.capacity {
            buffer = pending == 0 ? [] : Array(buffer[start...])
            scanned -= start
            start = 0
        } else if start > 0, start * 2 >= buffer.count {
            dropConsumed()
        }
    }

    private mutating func dropConsumed() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.removeSubrange(0..<start)
        }
        scanned -= start
        start = 0
    }
}
