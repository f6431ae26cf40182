import RunusCore

/// A request's `id` as the client wrote it: the bytes of its JSON value, put back in the answer
/// byte for byte (record 0502). Parsing the id would turn every number into a Double, so
/// `9007199254740993` would come back as `9007199254740992` and `1.10` as `1.1`.
public struct EchoedID: Sendable, Equatable {
    /// One JSON value's bytes: valid UTF-8 (the line was checked), no white space around it.
    public let bytes: [UInt8]

    /// What answers carry when the request had no `id` or could not be read.
    public static let null = EchoedID(rawBytes: Array("null".utf8))

    /// `value` as `JSONWriter` writes it: for answers to a value, not to a line.
    public init(_ value: JSONValue) { bytes = JSONWriter.bytes(value) }

    /// Bytes the parser located in a request line (`JSONParser.parse(_:locatingMember:)`).
    init(rawBytes: [UInt8]) { bytes = rawBytes }
}

extension Answer {
    /// `Answer.line(Answer.failure(id: …, code: code, message: message))` with the id's bytes as
    /// they came: `{"error":{"code":…,"message":…},"id":…,"ok":false}` and LF ("error" < "id" <
    /// "ok" in sorted order).
    public static func failureLine(id: EchoedID, code: ErrorCode, message: String) -> [UInt8] {
        failureLine(id: id, error: RequestError(code: code, message: message))
    }

    /// The same with the error's `field` and `index` when it has them.
    public static func failureLine(id: EchoedID, error: RequestError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(error.message.utf8.count + id.bytes.count + 64)
        out.append(contentsOf: #"{"error":"#.utf8)
        JSONWriter.write(error.json, into: &out)
        out.append(contentsOf: #","id":"#.utf8)
        out.append(contentsOf: id.bytes)
        out.append(contentsOf: ",\"ok\":false}\n".utf8)
        return out
    }

    /// `Answer.line(Answer.success(id: …, result: result))` with the id's bytes as they came:
    /// `{"id":…,"ok":true,"result":…}` and LF.
    public static func successLine(id: EchoedID, result: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(id.bytes.count + 128)
        out.append(contentsOf: #"{"id":"#.utf8)
        out.append(contentsOf: id.bytes)
        out.append(contentsOf: #","ok":true,"result":"#.utf8)
        JSONWriter.write(result, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }
}
