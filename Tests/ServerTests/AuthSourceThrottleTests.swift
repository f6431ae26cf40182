import Foundation
import RunusCore
import Testing
@testable import Server

/// Issue 55 (found 2026-12-07): the auth throttle was per connection only, so 50 connections
/// guessed 74 tokens a second. Failures now count per source address, daemon-wide (record 0513).
@Suite("auth failures counted per source address (record 0513)", .serialized)
struct AuthSourceThrottleTests {
    static let token = "7c1e9f0a4b2d6e8f3a5c7b9d1e0f2a4c"
    static let burst = 5

    @Test("a source's burst is spent by failures and refilled by time; sources are independent; the table is bounded")
    func bucket() {
        var throttle = AuthThrottle(burst: 3, refill: 1000, maximumSources: 4)
        let a: [UInt8] = [4, 10, 0, 0, 1], b: [UInt8] = [4, 10, 0, 0, 2]
        for _ in 0..<3 {
            #expect(throttle.wait(source: a, now: 0) == nil)
            throttle.failed(source: a, now: 0)
        }
        // Spent at 0; one failure is forgiven 1,000 ns later.
        #expect(throttle.wait(source: a, now: 0) == 1000)
        #expect(throttle.wait(source: a, now: 500) == 500)
        #expect(throttle.wait(source: a, now: 1000) == nil)
        #expect(throttle.wait(source: b, now: 0) == nil, "another source never waits for a's failures")
        // Five more sources fail once each: the table keeps at most four.
        for k: UInt8 in 1...5 { throttle.failed(source: [6, k], now: 5000) }
        #expect(throttle.trackedSources <= 4)
    }

    /// Connects from `local` (an address on the loopback, 127.0.0.0/8) to the server's TCP port
    /// and sends one `auth`; the answer.
    static func auth(from local: String, to address: ServerAddress, token: String) throws -> JSONValue {
        guard case .tcp(_, let port) = address else { throw ServerError.badAddress("\(address)", "tcp") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var me = sockaddr_in(), server = sockaddr_in()
        me.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, local, &me.sin_addr)
        server.sin_family = sa_family_t(AF_INET)
        server.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &server.sin_addr)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &me) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0)
        try #require(withUnsafePointer(to: &server) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } } == 0)
        let line = Array(JSONWriter.bytes(["op": "auth", "token": .string(token)])) + [0x0A]
        try #require(line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == line.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(0x0A) {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        return try JSONParser.parse(received.prefix { $0 != 0x0A })
    }

    @Test("40 connections from one address get 5 tokens compared in all; another address's right token still passes at once")
    func perSource() throws {
        let harness = try TestServer(configure: {
            $0.authToken = Array(Self.token.utf8)
            $0.authFailureDelay = .milliseconds(1)
            $0.authFailuresPerSource = Self.burst
            $0.authFailureRefill = .seconds(600)
        })
        defer { harness.stop() }
        var compared = 0, throttled = 0
        for k in 0..<40 {
            let answer = try Self.auth(from: "127.0.0.1", to: harness.tcp, token: "guess-\(k)-0123456789abcdef")
            #expect(answer.errorCode == "unauthorized", "\(answer)")
            let message = answer["error"]?["message"]?.stringValue ?? ""
            if message.contains("wrong or missing 'token'") { compared += 1 }
            if message.contains("the token was not checked") { throttled += 1 }
        }
        #expect(compared == Self.burst && throttled == 40 - Self.burst, "compared \(compared), throttled \(throttled)")
        // The spent address is refused even with the right token: it is not compared.
        #expect(try Self.auth(from: "127.0.0.1", to: harness.tcp, token: Self.token).errorCode == "unauthorized")
        // The backend on another address is not slowed by them.
        #expect(try Self.auth(from: "127.0.0.2", to: harness.tcp, token: Self.token)["result"]?["authenticated"] == true)
    }
}
