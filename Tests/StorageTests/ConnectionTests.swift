import Testing
@testable import Storage

@Suite("Connection and statement primitives")
struct ConnectionTests {
    static func connectionWithTable() throws -> SQLiteConnection {
        let c = try SQLiteConnection(path: ":memory:")
        try c.execute("CREATE TABLE v (k INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB)")
        return c
    }

    @Test("typed binds and getters round-trip extreme and special values")
    func typedRoundTrip() throws {
        let c = try Self.connectionWithTable()
        let ints: [Int64] = [.min, -1, 0, 1, .max]
        let reals: [Double] = [-.infinity, -0.0, .leastNonzeroMagnitude, 0.1, 1e308, .infinity]
        for (k, i) in ints.enumerated() {
            try c.run("INSERT INTO v (k, i, r, t, b) VALUES (?, ?, ?, ?, ?)", .integer(Int64(k)), .integer(i),
                      .real(reals[k]), .text("t\(k)"), .blob([UInt8(k), 0, 255]))
        }
        try c.withStatement("SELECT i, r, t, b FROM v ORDER BY k") { s in
            var k = 0
            while try s.step() {
                #expect(s.int64(at: 0) == ints[k])
                // SQLite stores whole REAL values as integers on disk, so -0.0 comes back as +0.0;
                // every other value keeps its exact bits.
                let expected = reals[k] == 0 ? 0.0 : reals[k]
                #expect(s.double(at: 1).bitPattern == expected.bitPattern)
                #expect(s.string(at: 2) == "t\(k)")
                #expect(s.blob(at: 3) == [UInt8(k), 0, 255])
                k += 1
            }
            #expect(k == ints.count)
        }
    }

    @Test("NULL, an empty blob and an empty string stay distinct; NaN is stored as NULL")
    func nullsAndEmpties() throws {
        let c = try Self.connectionWithTable()
        try c.run("INSERT INTO v (k, r, t, b) VALUES (1, ?, ?, ?)", .real(.nan), .text(""), .blob([]))
        try c.run("INSERT INTO v (k, r, t, b) VALUES (2, ?, ?, ?)", .null, .null, .null)
        let rows = try c.withStatement("SELECT r, t, b FROM v ORDER BY k") { s in
            var rows: [(Double?, String?, [UInt8]?)] = []
            while try s.step() { rows.append((s.optionalDouble(at: 0), s.optionalString(at: 1), s.optionalBlob(at: 2))) }
            return rows
        }
        #expect(rows.count == 2)
        #expect(rows[0].0 == nil && rows[0].1 == "" && rows[0].2 == [])
        #expect(rows[1].0 == nil && rows[1].1 == nil && rows[1].2 == nil)
    }

    @Test("the same SQL used inside its own iteration gets a second statement")
    func nestedSameSQL() throws {
        let c = try Self.connectionWithTable()
        for k in 1...3 { try c.run("INSERT INTO v (k, i) VALUES (?, ?)", .integer(Int64(k)), .integer(Int64(k * 10))) }
        let sql = "SELECT k, i FROM v WHERE k >= ? ORDER BY k"
        var pairs: [[Int64]] = []
        try c.withStatement(sql) { outer in
            try outer.bind(Int64(1), at: 1)
            while try outer.step() {
                let k = outer.int64(at: 0)
                let inner = try c.withStatement(sql) { s in
                    try s.bind(k, at: 1)
                    var values: [Int64] = []
                    while try s.step() { values.append(s.int64(at: 1)) }
                    return values
                }
                pairs.append(inner)
            }
        }
        #expect(pairs == [[10, 20, 30], [20, 30], [30]])
    }

    @Test("a bind to a parameter that does not exist throws SQLITE_RANGE naming the SQL")
    func bindOutOfRange() throws {
        let c = try Self.connectionWithTable()
        let error = #expect(throws: StorageError.self) {
            try c.withStatement("SELECT ?") { s in try s.bind(Int64(1), at: 2) }
        }
        #expect(error?.sqliteCode == 25)  // SQLITE_RANGE
        #expect(error?.description.contains("bind integer at 2") == true)
        #expect(error?.description.contains("SELECT ?") == true)
    }

    @Test("bad SQL fails at prepare with SQLite's message")
    func badSQL() throws {
        let c = try Self.connectionWithTable()
        let error = #expect(throws: StorageError.self) { try c.run("SELEC 1") }
        #expect(error?.sqliteCode == 1)  // SQLITE_ERROR
        #expect(error?.description.contains("syntax error") == true)
    }
}
