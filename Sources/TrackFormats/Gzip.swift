import CZlib

/// gzip (and zlib) decompression through the system zlib (record 0112). Concatenated gzip
/// members are read one after another, as `gunzip` does.
public enum Gzip {
    /// True when `bytes` start with the gzip magic 1F 8B.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed bytes; throws naming `name` and the compressed byte offset when the
    /// stream is corrupt or truncated. `limit` bounds the output (bytes, > 0) against
    /// decompression bombs.
    public static func decompress(_ bytes: [UInt8], name: String, limit: Int = 1 << 30) throws(TrackReadError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, bytes.count * 4))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
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
            let memberStart = consumed
            try bytes.withUnsafeBufferPointer { input throws(TrackReadError) in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + consumed)
                stream.avail_in = UInt32(input.count - consumed)
                repeat {
                    let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        return out.count - Int(stream.avail_out)
                    }
                    output.append(contentsOf: chunk[0..<produced])
                    if output.count > limit {
                        throw fail(.unsupported, memberStart, "decompressed size exceeds \(limit) bytes")
                    }
                    let at = input.count - Int(stream.avail_in)
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
        return output
    }
}
