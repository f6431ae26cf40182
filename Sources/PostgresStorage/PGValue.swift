/// The PostgreSQL types the store binds and reads, with their type OIDs (pg_type.oid, fixed in
/// every server since 7.x). Values travel in binary format both ways: integers and doubles as
/// 8 big-endian bytes (a double's IEEE bits, so every value round-trips exactly), text as its
/// UTF-8 bytes, bytea as its bytes, boolean as one byte.
enum PGType: UInt32, Sendable {
    case bool = 16
    case bytea = 17
    case int8 = 20
    case int4 = 23
    case text = 25
    case float8 = 701
    /// `text[]`, sent in array_recv's binary layout (one dimension, no NULLs).
    case textArray = 1009
}

/// A value bound to a `$n` parameter.
enum PGValue: Sendable, Equatable {
    case int64(Int64)
    case double(Double)
    case text(String)
    case bytes([UInt8])
    case bool(Bool)
    /// A one-dimensional `text[]` without NULLs (for `= ANY($n)`).
    case texts([String])
    case null

    static func int(_ value: Int) -> PGValue { .int64(Int64(value)) }
    static func int(_ value: Int?) -> PGValue { value.map { .int64(Int64($0)) } ?? .null }
    static func double(_ value: Double?) -> PGValue { value.map(PGValue.double) ?? .null }
    static func text(_ value: String?) -> PGValue { value.map(PGValue.text) ?? .null }
    static func bytes(_ value: [UInt8]?) -> PGValue { value.map(PGValue.bytes) ?? .null }

    /// The type this value is sent as; nil for NULL, which fits every parameter.
    var type: PGType? {
        switch self {
        case .int64: return .int8
        case .double: return .float8
        case .text: return .text
        case .bytes: return .bytea
        case .bool: return .bool
        case .texts: return .textArray
        case .null: return nil
        }
    }
}

/// A statement with its declared parameter types: the SQL is constant text with `$1`, `$2`, …
/// placeholders, and every value reaches the server bound to one of them, never inside the
/// text. The types are sent with the prepare, so the server never guesses one from context.
struct PGQuery: Sendable, Hashable {
    let sql: String
    let parameters: [PGType]

    init(_ sql: String, _ parameters: [PGType] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

/// Parameter values laid out for `PQexecPrepared`: one byte buffer, each value's offset and
/// length (-1 for NULL), all in binary format.
struct PGParameters {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [Int] = []
    private(set) var lengths: [Int32] = []

    /// Encodes `values` for `query`; a value of another type than declared, a text holding
    /// U+0000 (PostgreSQL text cannot hold it) or a value over 1 GiB is refused.
    init(_ values: [PGValue], for query: PGQuery) throws {
        guard values.count == query.parameters.count else {
            throw PGBindError(index: 0, problem: "\(values.count) values for \(query.parameters.count) parameters")
        }
        bytes.reserveCapacity(16 * values.count + 1)
        for (offset, value) in values.enumerated() {
            if let type = value.type, type != query.parameters[offset] {
                throw PGBindError(index: offset + 1, problem: "a \(type) value for a \(query.parameters[offset]) parameter")
            }
            let start = bytes.count
            switch value {
            case .int64(let v): append(UInt64(bitPattern: v))
            case .double(let v): append(v.bitPattern)
            case .text(let v):
                let utf8 = v.utf8
                if utf8.contains(0) {
                    throw PGBindError(index: offset + 1, problem: "text holds U+0000, which PostgreSQL text cannot store")
                }
                bytes.append(contentsOf: utf8)
            case .bytes(let v): bytes.append(contentsOf: v)
            case .bool(let v): bytes.append(v ? 1 : 0)
            case .texts(let v): try appendTextArray(v, parameter: offset + 1)
            case .null: break
            }
            let length = bytes.count - start
            guard length <= Self.maximumValueBytes else {
                throw PGBindError(index: offset + 1, problem: "\(length) bytes, over PostgreSQL's 1 GiB field limit")
            }
            offsets.append(start)
            if case .null = value { lengths.append(-1) } else { lengths.append(Int32(length)) }
        }
        bytes.append(0)  // a base address even when every value is empty
    }

    /// PostgreSQL's limit on one field.
    static let maximumValueBytes = (1 << 30) - 1

    private mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func append(_ value: Int32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// array_recv's layout: dimensions (0 for an empty array), a has-NULLs flag (0), the
    /// element type, then per dimension its length and lower bound (1), then each element as
    /// a 4-byte length and its bytes.
    private mutating func appendTextArray(_ values: [String], parameter: Int) throws {
        guard let count = Int32(exactly: values.count) else {
            throw PGBindError(index: parameter, problem: "\(values.count) elements, too many for one array")
        }
        append(Int32(values.isEmpty ? 0 : 1))
        append(Int32(0))
        append(Int32(bitPattern: PGType.text.rawValue))
        if !values.isEmpty {
            append(count)
            append(Int32(1))
        }
        for value in values {
            let utf8 = value.utf8
            if utf8.contains(0) {
                throw PGBindError(index: parameter, problem: "an element holds U+0000, which PostgreSQL text cannot store")
            }
            guard let length = Int32(exactly: utf8.count), utf8.count <= Self.maximumValueBytes else {
                throw PGBindError(index: parameter, problem: "an element of \(utf8.count) bytes, over PostgreSQL's 1 GiB field limit")
            }
            append(length)
            bytes.append(contentsOf: utf8)
        }
    }
}

/// A value that cannot be bound to parameter `$index` (1-based; 0: the list itself).
struct PGBindError: Error, Equatable {
    let index: Int
    let problem: String
}
