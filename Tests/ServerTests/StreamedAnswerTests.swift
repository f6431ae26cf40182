import Foundation
import RunusCore
import Synchronization
import Testing
@testable import Server

/// A result of `items` strings of `itemBytes` letters each, written as a JSON array a few items
/// at a time; `failAt` throws when that item is due. Counts the parts it was asked for.
final class LetterStream: ResultStream, @unchecked Sendable {
    let items: Int
    let itemBytes: Int
    let failAt: Int?
    private var next = 0
    private let partsMade = Atomic<Int>(0)

    init(items: Int, itemBytes: Int, failAt: Int? = nil) {
        self.items = items
        self.itemBytes = itemBytes
        self.failAt = failAt
    }

    var parts: Int { partsMade.load(ordering: .relaxed) }
    var itemsWritten: Int { next }

    /// The whole value, as `JSONWriter` writes it: what the streamed bytes must equal.
    static func whole(items: Int, itemBytes: Int) -> [UInt8] {
        JSONWriter.bytes(.array((0..<items).map { k in .string(letters(k, itemBytes)) }))
    }

    private static func letters(_ k: Int, _ count: Int) -> String {
        String(repeating: Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(k % 26))), count: count)
    }

    func writeNext(into out: inout [UInt8], partBytes: Int) throws -> Bool {
        partsMade.add(1, ordering: .relaxed)
        let start = out.count
        if next == 0 { out.append(UInt8(ascii: "[")) }
        while next < items, out.count - start < partBytes {
            if next == failAt { throw Boom() }
            if next > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.write(.string(Self.letters(next, itemBytes)), into: &out)
            next += 1
        }
        guard next == items else { return true }
        out.append(UInt8(ascii: "]"))
        return false
    }
}

/// Answers too large to hold whole (record 0555): streamed parts, the write deadline, and
/// whole answers that would pass the memory cap.
@Suite("streamed answers and the memory cap (record 0555)", .serialized)
struct StreamedAnswerTests {
    static let partBytes = 64 << 10
    static let highWater = 256 << 10
    static let itemBytes = 10 << 10

    /// A server whose `big` operation streams the `LetterStream` that `make` returns, offloaded.
    static func server(logs: LogSink, writeDeadline: Duration = .seconds(30), cap: Int? = nil,
                       make: @escaping @Sendable () -> LetterStream) throws -> TestServer {
        try TestServer(outputHighWaterBytes: highWater, logs: logs, configure: { c in
            c.offloadedOperations = ["big", "whole"]
            c.streamPartBytes = partBytes
            c.writeDeadline = writeDeadline
            if let cap { c.maximumBufferedBytes = cap; c.maximumLineBytes = cap / 4 }
        }, register: { router in
            router.registerStreamed("big") { _ in make() }
            router.register("whole") { request in
                .string(String(repeating: "w", count: try request.int("bytes")))
            }
        })
    }

    @Test("a streamed result reaches a reading client whole, made in parts, and the request pipelined behind it is answered after it")
    func wholeInParts() throws {
        let items = 200
        let stream = LetterStream(items: items, itemBytes: Self.itemBytes)
        let logs = LogSink()
        let harness = try Self.server(logs: logs) { stream }
        defer { harness.stop() }
        let client = try harness.client(harness.unix)
        try client.sendRaw(Array(#"{"op":"big","id":7}"#.utf8) + [0x0A] + Array(#"{"op":"health","id":8}"#.utf8) + [0x0A])
        let line = try #require(try client.readLine())
        let answer = try JSONParser.parse(line)
        #expect(answer["id"] == 7 && answer["ok"] == true)
        let expected = try JSONParser.parse(LetterStream.whole(items: items, itemBytes: Self.itemBytes))
        #expect(answer["result"] == expected)
        // 2 MB in parts of 64 KiB that may end an item (10 KiB and its quotes) late.
        let longestPart = Self.partBytes + Self.itemBytes + 3
        #expect(stream.parts >= line.count / longestPart, "\(stream.parts) parts for \(line.count) bytes")
        let next = try client.readAnswer()
        #expect(next["id"] == 8 && next["ok"] == true, "\(next)")
        #expect(harness.server.router.stats.json()["big"]?["requests"] == 1)
        #expect(harness.server.router.stats.json()["big"]?["errors"] == 0)
    }

    @Test("a client that asks for 50 MB and never reads holds at most the high-water mark and a part or two, and is cut off at the write deadline")
    func neverReads() throws {
        let items = 5_000  // 50 MB whole
        let stream = LetterStream(items: items, itemBytes: Self.itemBytes)
        let logs = LogSink()
        let harness = try Self.server(logs: logs, writeDeadline: .milliseconds(300)) { stream }
        defer { harness.stop() }
        let client = try harness.client(harness.unix)
        try client.sendRaw(Array(#"{"op":"big","id":1}"#.utf8) + [0x0A])
        #expect(eventually { logs.all.contains { $0.contains("\"write_deadline\"") } }, "\(logs.all)")
        #expect(eventually { harness.server.bufferedByteCount == 0 }, "\(harness.server.bufferedByteCount) bytes still held")
        // Held at most: the high-water mark, one part (which may end one item late), each as an
        // array capacity that may be twice its contents.
        let bound = 2 * (Self.highWater + Self.partBytes + Self.itemBytes)
        #expect(harness.server.peakBufferedByteCount <= bound, "peak \(harness.server.peakBufferedByteCount) > \(bound)")
        #expect(stream.itemsWritten < items / 10, "\(stream.itemsWritten) of \(items) items were made for a client that read none")
        // The server still answers others.
        #expect(try harness.client().call(["op": "health", "id": 2])["ok"] == true)
    }

    @Test("a stream failing at once answers an error line on a connection that stays usable; failing later cuts the line and closes")
    func failures() throws {
        let logs = LogSink()
        let failures = Mutex<[Int]>([0, 150])
        let harness = try Self.server(logs: logs) {
            LetterStream(items: 200, itemBytes: Self.itemBytes, failAt: failures.withLock { $0.removeFirst() })
        }
        defer { harness.stop() }
        let client = try harness.client(harness.unix)
        let early = try client.call(["op": "big", "id": 1])
        #expect(early.errorCode == "internal" && early["id"] == 1, "\(early)")
        #expect(try client.call(["op": "health", "id": 2])["ok"] == true)

        try client.sendRaw(Array(#"{"op":"big","id":3}"#.utf8) + [0x0A])
        // Item 150 is well past the first part: the line was started, and is never finished.
        do {
            let line = try client.readLine()
            Issue.record("a cut answer must not read as a line: \(line?.count ?? -1) bytes")
        } catch let error as ServerError {
            guard case .connectionClosed(let message) = error else { throw error }
            #expect(message.contains("in the middle of an answer line"), "\(message)")
        }
        #expect(logs.all.contains { $0.contains("\"stream_failed\"") })
        #expect(harness.server.router.stats.json()["big"]?["errors"] == 2)
    }

    /// Found by `make fuzz` on 2026-12-08: a race event pushed while a `users.export` was half
    /// written landed inside the answer's line.
    @Test("lines pushed while a streamed answer is half written come after its line, whole")
    func pushesWaitForTheLine() throws {
        let logs = LogSink()
        let items = 100
        let server = Mutex<LineServer?>(nil)
        let harness = try TestServer(outputHighWaterBytes: Self.highWater, logs: logs, configure: { c in
            c.offloadedOperations = ["big"]
            c.streamPartBytes = Self.partBytes
        }, register: { router in
            router.registerStreamed("big") { request in
                PushingStream(items: items, itemBytes: Self.itemBytes, connection: request.connectionID) { id, line in
                    _ = server.withLock { $0 }?.push(connectionID: id, line: line)
                }
            }
        })
        defer { harness.stop() }
        server.withLock { $0 = harness.server }
        let client = try harness.client(harness.unix)
        try client.send(["op": "big", "id": 1])
        // Every line parses on its own: the events come before the answer's line or after it,
        // never inside it, each whole and in the order pushed.
        let whole = try JSONParser.parse(LetterStream.whole(items: items, itemBytes: Self.itemBytes))
        let pushed = items * Self.itemBytes / (Self.partBytes + Self.itemBytes + 3)
        var answer: JSONValue?
        var events: [JSONValue] = []
        while answer == nil || events.count < pushed, let line = try client.readLine() {
            let value = try JSONParser.parse(line)
            if value["event"] != nil { events.append(value) } else { answer = value }
        }
        #expect(answer?["id"] == 1 && answer?["result"] == whole)
        #expect(events.count >= pushed && events.enumerated().allSatisfy { $0.element["n"] == .number(Double($0.offset)) },
                "\(events.prefix(3))")
    }

    @Test("a whole answer that would take the buffers past the cap is answered unavailable; small ones pass")
    func wholeAnswerOverCap() throws {
        let logs = LogSink()
        let cap = 2 << 20
        let harness = try Self.server(logs: logs, cap: cap) { LetterStream(items: 1, itemBytes: 1) }
        defer { harness.stop() }
        let client = try harness.client(harness.unix)
        let refused = try client.call(["op": "whole", "id": 1, "bytes": .number(Double(3 << 20))])
        #expect(refused.errorCode == "unavailable", "\(refused)")
        #expect(refused["error"]?["message"]?.stringValue?.contains("--max-buffered-bytes \(cap)") == true, "\(refused)")
        let small = try client.call(["op": "whole", "id": 2, "bytes": 1000])
        #expect(small["result"]?.stringValue?.count == 1000)
    }
}

/// A `LetterStream` that pushes an event line to its own connection with every part but the
/// last (as a race's watcher gets rankings while it exports).
final class PushingStream: ResultStream, @unchecked Sendable {
    private let letters: LetterStream
    private let connection: UInt64
    private let push: @Sendable (UInt64, [UInt8]) -> Void
    private var pushed = 0

    init(items: Int, itemBytes: Int, connection: UInt64, push: @escaping @Sendable (UInt64, [UInt8]) -> Void) {
        letters = LetterStream(items: items, itemBytes: itemBytes)
        self.connection = connection
        self.push = push
    }

    func writeNext(into out: inout [UInt8], partBytes: Int) throws -> Bool {
        let more = try letters.writeNext(into: &out, partBytes: partBytes)
        if more {
            push(connection, JSONWriter.bytes(["event": "tick", "n": .number(Double(pushed))]) + [0x0A])
            pushed += 1
        }
        return more
    }
}
