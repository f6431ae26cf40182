import RunusCore

/// One JSON value already written by `JSONWriter` (sorted keys, no white space): what an
/// operation that caches its answers hands to the router, so a cache hit costs no encoding
/// (decision 0521).
public struct EncodedJSON: Sendable, Equatable {
    /// The value's bytes, exactly `JSONWriter.bytes(value)`.
    public let bytes: [UInt8]

    public init(_ value: JSONValue) {
        bytes = JSONWriter.bytes(value)
    }

    /// Bytes a `ResultStream` wrote, whole (the inline paths of a streamed operation).
    init(streamedBytes: [UInt8]) {
        bytes = streamedBytes
    }
}

extension Answer {
    /// `Answer.line(Answer.success(id: id, result: value))` for `result` = `EncodedJSON(value)`,
    /// byte for byte, without encoding `value` again: "id" < "ok" < "result" in sorted order.
    public static func successLine(id: JSONValue, encodedResult result: EncodedJSON) -> [UInt8] {
        successLine(id: EchoedID(id), encodedResult: result)
    }

    /// The same with the request's id bytes as they came (record 0502).
    public static func successLine(id: EchoedID, encodedResult result: EncodedJSON) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(result.bytes.count + id.bytes.count + 40)
        out.append(contentsOf: #"{"id":"#.utf8)
        out.append(contentsOf: id.bytes)
        out.append(contentsOf: #","ok":true,"result":"#.utf8)
        out.append(contentsOf: result.bytes)
        out.append(contentsOf: "}\n".utf8)
        return out
    }
}
