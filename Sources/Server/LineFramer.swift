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
    private var buffer: [UInt8] = []
    /// Start of the first unconsumed byte in `buffer`.
    private var start = 0
    /// Bytes before this index (from `start`) are known to hold no LF, so scans resume here.
    private var scanned = 0
    private(set) var failed = false

    init(maximumLineBytes: Int) {
        precondition(maximumLineBytes > 0, "maximumLineBytes must be positive, got \(maximumLineBytes)")
        self.maximumLineBytes = maximumLineBytes
    }

    /// Bytes received but not yet returned as lines.
    var bufferedByteCount: Int { buffer.count - start }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
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

    private mutating func fail() -> Frame {
        failed = true
        buffer = []
        start = 0
        scanned = 0
        return .tooLong
    }

    /// Drops consumed bytes when they are at least half the buffer, so each byte moves O(1)
    /// times on average.
    private mutating func compactIfWorthwhile() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
        } else {
            return
        }
        scanned -= start
        start = 0
    }
}
