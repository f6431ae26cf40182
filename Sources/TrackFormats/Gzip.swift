import CZlib

/// gzip (and zlib) decompression through the system zlib (record 0112). Concatenated gzip
/// members are read one after another, as `gunzip` does.
public enum Gzip {
    /// How far an input may expand before it is refused as a decompression bomb (record 0112).
    /// The check runs while inflating, so a bomb costs at most about `allowed` bytes of memory
    /// and the time to inflate them, never its full size.
    public struct Limits: Sendable, Equatable {
        /// Output always allowed, whatever the ratio, in bytes (> 0). Default 64 MiB: 40× the
        /// largest real track file we have (1.5 MB of GPX).
        public var floorBytes: Int
        /// Output allowed per compressed byte read so far, > 0. Default 100: real track files
        /// expand 1.1–31.5× (GPX, TCX, FIT, CSV; record 0112), zlib's ceiling is ~1,032×.
        public var maximumRatio: Int
        /// Output never allowed beyond this, in bytes (>= `floorBytes`). Default 1 GiB.
        public var absoluteBytes: Int

        public init(floorBytes: Int = 64 << 20, maximumRatio: Int = 100, absoluteBytes: Int = 1 << 30) {
            self.floorBytes = floorBytes
            self.maximumRatio = maximumRatio
            self.absoluteBytes = absoluteBytes
        }

        public static let `default` = Limits()

        /// Output bytes allowed once `consumed` compressed bytes have been read (>= 0).
        func allowed(afterConsuming consumed: Int) -> Int {
            let (byRatio, overflow) = consumed.multipliedReportingOverflow(by: maximumRatio)
            return min(absoluteBytes, max(floorBytes, overflow ? Int.max : byRatio))
        }
    }

    /// True when `bytes` start with the gzip magic 1F 8B.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Bytes inflated per zlib call: also the most the output can pass a limit by.
    static let chunkBytes = 1 << 16

    /// The decompressed bytes; throws naming `name` and the compressed byte offset when the
    /// stream is corrupt or truncated, or (`tooLarge`) as soon as the output passes `limits`.
    public static func decompress(_ bytes: [UInt8], name: String, limits: Limits = .default) throws(TrackReadError) -> [UInt8] {
        var output = OutputPieces()
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        var consumed = 0
        func fail(_ problem: TrackReadProblem, _ at: Int, _ message: String) -> TrackReadError {
            TrackReadError(file: name, offset: at, problem: problem, message: message)
        }
        while consumed < bytes.count {
            // Trailing zero padding after a member is tolerated (some tools write it).
            if consumed > 0, bytes[consumed...].allSatisfy({ $0 == 0 }) { break }
            var stream = z_stream()
            // 15 + 32: detect gzip or zlib headers automatically.
            guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw fail(.malformed, consumed, "zlib could not be initialised")
            }
            defer { inflateEnd(&stream) }
            var status: Int32 = Z_OK
            try bytes.withUnsafeBufferPointer { input throws(TrackReadError) in
                guard let base = input.baseAddress else { return }
                stream.next_in = UnsafeMutablePointer(mutating: base + consumed)
                stream.avail_in = UInt32(clamping: input.count - consumed)
                repeat {
                    let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        return out.count - Int(stream.avail_out)
                    }
                    let at = input.count - Int(stream.avail_in)
                    let allowed = limits.allowed(afterConsuming: at)
                    if output.count + produced > allowed {
                        throw fail(.tooLarge, at, "gzip: more than \(allowed) bytes out of the first \(at) compressed bytes "
                                   + "(allowed: max(\(limits.floorBytes), \(limits.maximumRatio) × compressed), at most "
                                   + "\(limits.absoluteBytes)); refused as a likely decompression bomb")
                    }
                    output.append(chunk[0..<produced])
                    switch status {
                    case Z_OK, Z_STREAM_END: break
                    case Z_BUF_ERROR where stream.avail_in == 0:
                        throw fail(.truncated, at, "gzip stream ends before its end marker")
                    case Z_DATA_ERROR:
                        let reason = stream.msg.map { String(cString: $0) } ?? "invalid compressed data"
                        let problem: TrackReadProblem = reason.contains("check") ? .checksum : reason.contains("header") ? .header : .malformed
                        throw fail(problem, at, "gzip: \(reason)")
                    default:
                        throw fail(.malformed, at, "gzip: zlib status \(status)")
                    }
                } while status != Z_STREAM_END
                consumed = input.count - Int(stream.avail_in)
            }
        }
        return output.joined()
    }
}

/// Inflated bytes kept in pieces of fixed capacity, joined once at the end: a growing array
/// would copy itself at every doubling and briefly hold 1.5× its bytes, which matters for an
/// input that is about to be refused at the limit (record 0112).
struct OutputPieces {
    /// Capacity of each piece, in bytes (1 MiB).
    static let pieceBytes = 1 << 20
    private var pieces: [[UInt8]] = []
    private(set) var count = 0

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        var rest = bytes
        while !rest.isEmpty {
            if pieces.isEmpty || pieces[pieces.count - 1].count == Self.pieceBytes {
                var piece: [UInt8] = []
                piece.reserveCapacity(Self.pieceBytes)
                pieces.append(piece)
            }
            let n = min(rest.count, Self.pieceBytes - pieces[pieces.count - 1].count)
            pieces[pieces.count - 1].append(contentsOf: rest.prefix(n))
            rest = rest.dropFirst(n)
        }
        count += bytes.count
    }

    /// All bytes in one array of capacity `count` (a small output is not left in a 1 MiB piece).
    consuming func joined() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        // Release each piece once copied: the join needs one piece more than the output, not
        // twice the output.
        pieces.reverse()
        while let piece = pieces.popLast() { out.append(contentsOf: piece) }
        return out
    }
}
