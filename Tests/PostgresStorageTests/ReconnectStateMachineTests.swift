import Testing
@testable import PostgresStorage

@Suite("Reconnect backoff, one event at a time")
struct ReconnectStateMachineTests {
    static let second: Int64 = 1_000_000_000

    @Test("a healthy pool connects; after a failure requests fail fast until the delay has passed, then one probes")
    func backoff() {
        var machine = ReconnectStateMachine(firstDelay: 0.1, maximumDelay: 5)
        #expect(machine.connectionWanted(now: 0) == .connect)
        machine.connectFailed(now: 0, reason: "refused")
        #expect(machine.connectionWanted(now: Self.second / 20) == .failFast(reason: "refused", retryIn: 0.05))
        #expect(machine.connectionWanted(now: Self.second / 10) == .connect)  // the probe
        #expect(machine.connectionWanted(now: Self.second / 10) == .failFast(reason: "refused", retryIn: 0))
        machine.connectFailed(now: Self.second / 10, reason: "still refused")
        // Second failure in a row: twice the delay.
        #expect(machine.connectionWanted(now: Self.second / 10 + Self.second / 10) == .failFast(reason: "still refused", retryIn: 0.1))
        #expect(machine.connectionWanted(now: Self.second / 10 + Self.second / 5) == .connect)
        machine.connected()
        #expect(machine.state == .healthy)
        #expect(machine.connectionWanted(now: Self.second) == .connect)
        #expect(machine.connectionWanted(now: Self.second) == .connect)  // healthy: no limit
    }

    @Test("delays double from the first to the cap and stay there", arguments: [(1, 0.1), (2, 0.2), (3, 0.4), (6, 3.2), (7, 5.0), (1000, 5.0)])
    func delays(failures: Int, expected: Double) {
        let machine = ReconnectStateMachine(firstDelay: 0.1, maximumDelay: 5)
        #expect(abs(machine.delay(failures: failures) - expected) < 1e-12)
    }

    @Test("connects that were already under way when the server went down fail without growing the delay")
    func concurrentFailures() {
        var machine = ReconnectStateMachine(firstDelay: 1, maximumDelay: 8)
        _ = machine.connectionWanted(now: 0)
        _ = machine.connectionWanted(now: 0)
        machine.connectFailed(now: 0, reason: "a")
        machine.connectFailed(now: 0, reason: "b")
        #expect(machine.state == .backingOff(failures: 1, retryAt: Self.second, reason: "b"))
    }
}

@Suite("Bound parameters")
struct PGParametersTests {
    @Test("integers and doubles travel as big-endian bytes, text as UTF-8, NULL as length -1")
    func layout() throws {
        let query = PGQuery("SELECT $1, $2, $3, $4, $5", [.int8, .float8, .text, .bytea, .bool])
        let p = try PGParameters([.int64(-2), .double(1.5), .null, .bytes([]), .bool(true)], for: query)
        #expect(p.lengths == [8, 8, -1, 0, 1])
        #expect(Array(p.bytes[0..<8]) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
        #expect(Array(p.bytes[8..<16]) == [0x3F, 0xF8, 0, 0, 0, 0, 0, 0])  // 1.5
        #expect(p.bytes[16] == 1)
    }

    @Test("a value of another type than declared, or text holding U+0000, is refused before anything is sent")
    func refused() {
        let query = PGQuery("SELECT $1", [.int8])
        #expect(throws: PGBindError(index: 1, problem: "a text value for a int8 parameter")) {
            try PGParameters([.text("1")], for: query)
        }
        #expect(throws: PGBindError.self) { try PGParameters([.text("a\u{0}b")], for: PGQuery("SELECT $1", [.text])) }
        #expect(throws: PGBindError.self) { try PGParameters([], for: query) }
    }
}
