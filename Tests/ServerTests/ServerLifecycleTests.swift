import Foundation
import RunusCore
import Synchronization
import Testing
@testable import Server

/// Counts how many calls of an operation run at once, and the most ever seen.
final class Concurrency: Sendable {
    private let state = Mutex<(now: Int, peak: Int)>((0, 0))
    func enter() { state.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) } }
    func leave() { state.withLock { $0.now -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}

/// Waits on a semaphore the test releases, so "slow" needs no sleeping.
final class Gate: Sendable {
    let semaphore = DispatchSemaphore(value: 0)
    func open(_ n: Int) { for _ in 0..<n { semaphore.signal() } }
}

@Suite("LineServer worker pool, limits and auth")
struct ServerLimitsTests {
    @Test("offloaded requests and inline ones pipelined together are answered in request order")
    func offloadOrder() throws {
        let gate = Gate()
        let harness = try TestServer(configure: { $0.offloadedOperations = ["slow"] }, register: { router in
            router.register("slow") { [gate] request in
                _ = gate.semaphore.wait(timeout: .now() + 10)
                return request.id
            }
        })
        defer { harness.stop() }
        let client = try harness.client()
        var lines = ""
        for i in 0..<12 { lines += (i % 3 == 0 ? #"{"op":"slow","id":\#(i)}"# : #"{"op":"health","id":\#(i)}"#) + "\n" }
        try client.sendRaw(Array(lines.utf8))
        gate.open(4)
        for i in 0..<12 { #expect(try client.readAnswer()["id"] == .number(Double(i))) }
    }

    @Test("a connection's requests run one after another, offloaded or not (found 2026-12-01: a read overtook a write)")
    func oneAtATime() throws {
        let running = Concurrency()
        let gate = Gate()
        let harness = try TestServer(configure: {
            $0.offloadedOperations = ["slow"]
        }, register: { router in
            router.register("slow") { [running, gate] request in
                running.enter()
                defer { running.leave() }
                _ = gate.semaphore.wait(timeout: .now() + 10)
                return request.id
            }
        })
        defer { harness.stop() }
        let client = try harness.client()
        let lines = (0..<20).map { #"{"op":"slow","id":\#($0)}"# + "\n" }.joined()
        try client.sendRaw(Array(lines.utf8))
        gate.open(20)
        for i in 0..<20 { #expect(try client.readAnswer()["id"] == .number(Double(i))) }
        #expect(running.peak == 1)
    }

    @Test("a read pipelined behind an offloaded write on the same connection sees the write")
    func readAfterWrite() throws {
        let value = Mutex(0)
        let harness = try TestServer(configure: { $0.offloadedOperations = ["write"] }, register: { router in
            router.register("write") { request in
                usleep(20_000)  // the write is slow; the read must still come after it
                value.withLock { $0 = request.params["v"]?.intValue ?? -1 }
                return ["written": true]
            }
            router.register("read") { _ in .number(Double(value.withLock { $0 })) }
        })
        defer { harness.stop() }
        let client = try harness.client()
        var lines = ""
        for v in 1...10 { lines += #"{"op":"write","v":\#(v)}"# + "\n" + #"{"op":"read"}"# + "\n" }
        try client.sendRaw(Array(lines.utf8))
        for v in 1...10 {
            #expect(try client.readAnswer()["ok"] == true)
            #expect(try client.readAnswer()["result"] == .number(Double(v)))
        }
    }

    @Test("over maximumConnections a new client gets unavailable and a close; a freed place is reused")
    func connectionLimit() throws {
        let harness = try TestServer(configure: { $0.maximumConnections = 2 })
        defer { harness.stop() }
        let a = try harness.client(), b = try harness.client()
        #expect(try a.call(["op": "health"])["ok"] == true)
        #expect(try b.call(["op": "health"])["ok"] == true)
        let c = try harness.client()
        #expect(try c.readAnswer().errorCode == "unavailable")
        #expect(try c.readLine() == nil)
        a.close()
        // The close is seen by the server asynchronously: retry until a place is free (bounded).
        var served = false
        for _ in 0..<200 where !served {
            let d = try harness.client()
            served = (try? d.call(["op": "health"]))?["ok"] == true
        }
        #expect(served)
    }

    @Test("a silent connection is closed after idleTimeout; an active one is not")
    func idleTimeout() throws {
        let harness = try TestServer(configure: { $0.idleTimeout = .milliseconds(300) })
        defer { harness.stop() }
        let silent = try harness.client()
        let started = ContinuousClock.now
        #expect(try silent.readLine() == nil)  // EOF from the server, within the client's 10 s
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }

    @Test("with a token, TCP clients must auth first; the Unix socket is exempt")
    func auth() throws {
        let harness = try TestServer(configure: { $0.authToken = Array("s3cret-token-0123456789".utf8) })
        defer { harness.stop() }
        let tcp = try harness.client()
        #expect(try tcp.call(["op": "health", "id": 1]).errorCode == "unauthorized")
        #expect(try tcp.call(["op": "auth", "token": "wrong"]).errorCode == "unauthorized")
        #expect(try tcp.call(["op": "auth"]).errorCode == "unauthorized")
        #expect(try tcp.call(["op": "auth", "token": "s3cret-token-0123456789", "id": 2]) == ["id": 2, "ok": true, "result": ["authenticated": true]])
        #expect(try tcp.call(["op": "health", "id": 3])["ok"] == true)
        let unix = try harness.client(harness.unix)
        #expect(try unix.call(["op": "health"])["ok"] == true)
        #expect(Connection.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!Connection.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!Connection.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
    }

    @Test("stats reports latency percentiles per op")
    func statsPercentiles() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client()
        for _ in 0..<50 { _ = try client.call(["op": "health"]) }
        let latency = try #require(harness.server.router.stats.latencies()["health"])
        #expect(latency.p50 <= latency.p90 && latency.p90 <= latency.p99 && latency.p99 <= latency.max)
        #expect(latency.max > 0)
        let json = harness.server.router.stats.json()
        #expect(json["health"]?["requests"] == 50)
        #expect(json["health"]?["p99_ms"]?.doubleValue != nil)
    }

    @Test("histogram percentiles are within the bucket precision of the exact nearest-rank ones")
    func histogramOracle() {
        var rng = SeededGenerator(seed: 11)
        for n in [1, 7, 100, 10_000] {
            var h = LatencyHistogram()
            var samples: [UInt64] = []
            for _ in 0..<n {
                let v = UInt64(exp(rng.uniform() * 16))  // 1 µs ... 9 s, log-spread
                samples.append(v)
                h.record(microseconds: v)
            }
            samples.sort()
            for q in [0.0, 0.5, 0.9, 0.99, 1.0] {
                let exact = samples[max(1, Int((q * Double(n)).rounded(.up))) - 1]
                let approx = h.quantile(q)
                // Reported as the bucket's upper bound: never below, at most 1/8 above (+1 µs).
                #expect(approx >= exact && Double(approx) <= Double(exact) * 1.125 + 1, "n=\(n) q=\(q)")
            }
            #expect(h.maxMicroseconds == samples.last)
        }
    }
}

/// Issue 53, item 3 (found 2026-12-08): lines already received when SIGTERM came were never
/// answered; the connection closed under them.
@Suite("a stopping server answers every line it received")
struct DrainAnswersTests {
    @Test("stop while a request runs: it finishes, the four lines read behind it get unavailable with their ids, in order")
    func drainRefusesReceived() throws {
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let harness = try TestServer(configure: { $0.offloadedOperations = ["slow"] }, register: { router in
            router.register("slow") { _ in
                entered.signal()
                gate.wait()
                return ["done": true]
            }
        })
        let client = try harness.client(harness.unix)
        var batch = Array(#"{"op":"slow","id":1}"#.utf8) + [0x0A]
        for id in 2...5 { batch += Array(#"{"op":"health","id":\#(id)}"#.utf8) + [0x0A] }
        try client.sendRaw(batch)
        #expect(entered.wait(timeout: .now() + 10) == .success)
        // Everything sent is in the server's buffer (the connection reads nothing more while a
        // request runs, and these came in the same read or before it).
        #expect(eventually { unreadBytes(client.fileDescriptor) == 0 })
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread { harness.stop(); stopped.signal() }
        // The stop refuses the four lines at once (counted), queued behind the running one.
        #expect(eventually { harness.server.router.stats.snapshot()["health"] == Stats.Counts(requests: 4, errors: 4) })
        gate.signal()
        var answers: [JSONValue] = []
        while let line = try client.readLine() { answers.append(try JSONParser.parse(line)) }
        #expect(answers.map { $0["id"] } == [1, 2, 3, 4, 5], "\(answers)")
        #expect(answers.first?["result"]?["done"] == true)
        #expect(answers.dropFirst().allSatisfy { $0.errorCode == "unavailable" }, "\(answers)")
        #expect(answers.last?["error"]?["message"]?.stringValue?.contains("the daemon is stopping") == true)
        #expect(stopped.wait(timeout: .now() + 10) == .success)
    }
}
