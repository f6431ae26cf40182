import Foundation
import RunusCore
import Testing
@testable import Server

/// Bytes the peer has not yet read from a Unix stream socket (SIOCOUTQ): 0 once the server
/// has taken everything this client sent.
func unreadBytes(_ fd: Int32) -> Int32 {
    var queued: Int32 = 0
    return ioctl(fd, UInt(0x5411 /* SIOCOUTQ */), &queued) == 0 ? queued : -1
}

/// Waits (bounded) until `condition` holds; false on timeout. For conditions the server
/// reaches on its own threads, checked often.
func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        usleep(1_000)
    }
    return true
}

@Suite("daemon-wide memory cap (record 0530)")
struct MemoryCapTests {
    static let cap = 4 << 20
    static let maximumLine = 1 << 20
    /// Room the cap may be passed by: the `unavailable` answers queued for refused connections
    /// (a few hundred bytes each) and the allocator's rounding of capacities.
    static let answerSlack = 64 << 10

    @Test("partial lines fill three quarters of the cap, then get unavailable; short requests still pass; all memory comes back")
    func partialLines() throws {
        let harness = try TestServer(maximumLineBytes: Self.maximumLine, configure: { $0.maximumBufferedBytes = Self.cap })
        defer { harness.stop() }
        let partial = [UInt8](repeating: UInt8(ascii: "x"), count: 900 << 10)
        var held: [LineClient] = []
        var refused = 0
        for _ in 0..<10 {
            let client = try harness.client(harness.unix)
            // The server reads as fast as this sends, unless it refuses (then it discards).
            try? client.sendRaw(partial)
            #expect(eventually { unreadBytes(client.fileDescriptor) == 0 || (try? Sys.poll(client.fileDescriptor, events: Int16(POLLIN), timeoutMilliseconds: 0)) != 0 })
            if try Sys.poll(client.fileDescriptor, events: Int16(POLLIN), timeoutMilliseconds: 0) != 0 {
                let answer = try client.readAnswer()
                #expect(answer.errorCode == "unavailable" && answer["id"] == .null, "\(answer)")
                #expect(try client.readLine() == nil)
                refused += 1
            } else {
                held.append(client)
            }
        }
        // 900 KiB lines take 1 MiB of capacity each; the large-line share is 3 MiB.
        #expect((2...3).contains(held.count), "\(held.count) held, \(refused) refused")
        #expect(refused == 10 - held.count)
        #expect(harness.server.peakBufferedByteCount <= Self.cap + Self.answerSlack)
        // A short request on a new connection is served from the quarter kept for them.
        #expect(try harness.client().call(["op": "health", "id": 1])["ok"] == true)
        // A held line still completes (as bad JSON: it is all x).
        try held[0].sendRaw([0x0A])
        #expect(try held[0].readAnswer().errorCode == "bad_json")
        for client in held { client.close() }
        #expect(eventually { harness.server.bufferedByteCount == 0 }, "still counted: \(harness.server.bufferedByteCount)")
    }

    @Test("over the cap, new requests get unavailable (id null); a connection whose buffer must grow is closed; freed output lets requests through")
    func newWorkRefusedThenServed() throws {
        let harness = try TestServer(maximumLineBytes: 256 << 10, outputHighWaterBytes: 16 << 20, configure: {
            $0.maximumBufferedBytes = 2 << 20
        }, register: { router in
            router.register("blob") { _ in .string(String(repeating: "b", count: 1_000_000)) }
        })
        defer { harness.stop() }
        // A connection used before: its buffers already fit a short request.
        let other = try harness.client(harness.unix)
        #expect(try other.call(["op": "health", "id": 6])["ok"] == true)
        // A pipelines big answers and does not read them: they fill its output queue.
        let reader = try harness.client(harness.unix)
        for i in 0..<6 { try reader.send(["op": "blob", "id": .number(Double(i))]) }
        #expect(eventually { harness.server.bufferedByteCount >= 2 << 20 })
        let refused = try other.call(["op": "health", "id": 7])
        #expect(refused.errorCode == "unavailable" && refused["id"] == .null, "\(refused)")
        // A new connection would have to grow a buffer: unavailable, then closed.
        let fresh = try harness.client(harness.unix)
        #expect(try fresh.call(["op": "health", "id": 9]).errorCode == "unavailable")
        #expect(try fresh.readLine() == nil)
        // A reads: the answers computed before the cap, then unavailable for the rest.
        let answers = try (0..<6).map { _ in try reader.readAnswer() }
        let served = answers.prefix { $0["ok"] == true }.count
        #expect(served >= 1 && served < 6, "\(served) served")
        #expect(answers.dropFirst(served).allSatisfy { $0.errorCode == "unavailable" })
        // Drained output is given back, and the open connection is served again.
        #expect(eventually { harness.server.bufferedByteCount < 2 << 20 })
        #expect(try other.call(["op": "health", "id": 8])["ok"] == true)
    }

    @Test("a connection that carried a 900 KiB line keeps no more than one read of capacity afterwards")
    func capacityGivenBack() throws {
        let harness = try TestServer(maximumLineBytes: Self.maximumLine)
        defer { harness.stop() }
        let client = try harness.client()
        try client.sendRaw([UInt8](repeating: UInt8(ascii: "x"), count: 900 << 10) + [0x0A])
        #expect(try client.readAnswer().errorCode == "bad_json")
        // Input and output may each keep one read's worth (64 KiB).
        let retained = 2 * harness.server.configuration.readChunkBytes
        #expect(eventually { harness.server.bufferedByteCount <= retained }, "\(harness.server.bufferedByteCount) bytes kept")
        #expect(try client.call(["op": "health"])["ok"] == true)
    }

    @Test("a pipeliner faster than its answers does not grow the input buffer: no read while complete lines wait")
    func pipelinedLinesWait() throws {
        let highWater = 64 << 10
        let harness = try TestServer(outputHighWaterBytes: highWater)
        defer { harness.stop() }
        let client = try harness.client()
        let count = 40_000
        var batch: [UInt8] = []
        for i in 0..<count { batch += Array(#"{"op":"health","id":\#(i)}"#.utf8) + [0x0A] }
        nonisolated(unsafe) let sender = client
        let bytes = batch
        let writerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? sender.sendRaw(bytes)
            writerDone.signal()
        }
        for i in 0..<count { #expect(try client.readAnswer()["id"] == .number(Double(i))) }
        #expect(writerDone.wait(timeout: .now() + .seconds(10)) == .success)
        // Input: one read (64 KiB) and a partial line, doubled at most once; output: the
        // high-water mark and one turn of answers, doubled at most once. The 1 MB sent never is.
        let bound = 2 * (64 << 10) + 2 * (highWater + (32 << 10))
        #expect(harness.server.peakBufferedByteCount <= bound, "peak \(harness.server.peakBufferedByteCount) of \(batch.count) sent")
    }
}
