import CLibPQ
import Storage

/// The rows of one statement's answer, in binary format (`PGType` says how each type is laid
/// out). Owns the libpq result and frees it when released. Every read checks the column's type
/// and the value's length, so a schema that is not the one this build wrote is reported as an
/// `invalidValue`, never read as garbage.
final class PGRows {
    private let result: OpaquePointer
    /// Rows and columns of the answer.
    let count: Int
    let columns: Int
    /// Rows changed by an INSERT, UPDATE or DELETE (PQcmdTuples), 0 for other statements.
    let changes: Int
    /// The command tag: "INSERT 0 1", "COMMIT", "ROLLBACK", …
    let tag: String

    init(_ result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columns = Int(PQnfields(result))
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        tag = String(cString: PQcmdStatus(result))
    }

    deinit { PQclear(result) }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    func int64(_ row: Int, _ column: Int) throws -> Int64 {
        if PQftype(result, Int32(column)) == PGType.int4.rawValue {
            return Int64(Int32(bitPattern: try fixed(row, column, .int4, as: UInt32.self)))
        }
        return Int64(bitPattern: try fixed(row, column, .int8, as: UInt64.self))
    }

    func int(_ row: Int, _ column: Int) throws -> Int {
        let value = try int64(row, column)
        guard let narrow = Int(exactly: value) else { throw invalid(row, column, "\(value)", "an Int") }
        return narrow
    }

    func double(_ row: Int, _ column: Int) throws -> Double {
        Double(bitPattern: try fixed(row, column, .float8, as: UInt64.self))
    }

    func string(_ row: Int, _ column: Int) throws -> String {
        let (pointer, length) = try raw(row, column, expecting: .text)
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    func bytes(_ row: Int, _ column: Int) throws -> [UInt8] {
        let (pointer, length) = try raw(row, column, expecting: .bytea)
        return length == 0 ? [] : Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    func bool(_ row: Int, _ column: Int) throws -> Bool {
        let (pointer, length) = try raw(row, column, expecting: .bool)
        guard length == 1, let pointer else { throw invalid(row, column, "\(length) bytes", "a boolean") }
        return pointer.load(as: UInt8.self) != 0
    }

    func optionalInt(_ row: Int, _ column: Int) throws -> Int? { isNull(row, column) ? nil : try int(row, column) }
    func optionalDouble(_ row: Int, _ column: Int) throws -> Double? { isNull(row, column) ? nil : try double(row, column) }
    func optionalString(_ row: Int, _ column: Int) throws -> String? { isNull(row, column) ? nil : try string(row, column) }
    func optionalBytes(_ row: Int, _ column: Int) throws -> [UInt8]? { isNull(row, column) ? nil : try bytes(row, column) }

    // MARK: Checked access

    /// A fixed-width value (4 or 8 bytes) as the big-endian integer it is sent as.
    private func fixed<T: FixedWidthInteger & UnsignedInteger>(_ row: Int, _ column: Int, _ type: PGType,
                                                               as: T.Type) throws -> T {
        let (pointer, length) = try raw(row, column, expecting: type)
        guard length == MemoryLayout<T>.size, let pointer else {
            throw invalid(row, column, "\(length) bytes", "\(MemoryLayout<T>.size) bytes of \(type)")
        }
        return T(bigEndian: pointer.loadUnaligned(as: T.self))
    }

    private func raw(_ row: Int, _ column: Int, expecting type: PGType) throws -> (UnsafeRawPointer?, Int) {
        guard row >= 0, row < count, column >= 0, column < columns else {
            throw invalid(row, column, "no such cell", "a row < \(count) and a column < \(columns)")
        }
        let found = PQftype(result, Int32(column))
        guard found == type.rawValue else {
            throw invalid(row, column, "a value of type oid \(found)", "\(type) (oid \(type.rawValue))")
        }
        guard !isNull(row, column) else { throw invalid(row, column, "NULL", "a \(type) value") }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return (PQgetvalue(result, Int32(row), Int32(column)).map(UnsafeRawPointer.init), length)
    }

    private func invalid(_ row: Int, _ column: Int, _ value: String, _ expected: String) -> StorageError {
        let name = column < columns ? PQfname(result, Int32(column)).map { String(cString: $0) } ?? "?" : "?"
        return .invalidValue(table: "result row \(row)", column: name, value: value, expected: expected)
    }
}
