import Foundation
import RunusCore
import Testing
@testable import Server

/// `LineClient.exchange`: one thread that writes far more than the server lets pile up, reads
/// as it goes, and must neither deadlock nor lose or reorder an answer (the fuzzer's client).
@Suite("LineClient exchange")
struct LineClientExchangeTests {
    @Test("3 MB of pipelined requests against a 4 KiB high-water mark: every answer, in order, from one thread")
    func pipelinedThroughBackpressure() throws {
        let harness = try TestServer(outputHighWaterBytes: 4096)
        defer { harness.stop() }
        let client = try harness.client()
        let count = 3000
        let payload = String(repeating: "z", count: 1000)
        var output: [UInt8] = []
        for i in 0..<count { output += Array(#"{"op":"echo","id":\#(i),"p":"\#(payload)"}"#.utf8) + [0x0A] }
        var sent = 0
        var answers: [[UInt8]] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while answers.count < count, ContinuousClock.now < deadline {
            let step = try client.exchange(output, sent: &sent, timeout: .milliseconds(200))
            answers += step.lines
            #expect(!step.closed)
            if step.closed { break }
        }
        #expect(sent == output.count)
        #expect(answers.count == count)
        let ids = answers.map { (try? JSONParser.parse($0))?["id"]?.intValue ?? -1 }
        #expect(ids == Array(0..<answers.count))
    }

    @Test("the server closing the connection is reported as closed, with the lines before it")
    func closedAfterLineTooLong() throws {
        let harness = try TestServer(maximumLineBytes: 1024)
        defer { harness.stop() }
        let client = try harness.client(harness.unix)
        let output = Array(#"{"op":"health","id":1}"#.utf8) + [0x0A] + [UInt8](repeating: 0x61, count: 4096) + [0x0A]
        var sent = 0
        var lines: [[UInt8]] = []
        var closed = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !closed, ContinuousClock.now < deadline {
            let step = try client.exchange(output, sent: &sent, timeout: .milliseconds(200))
            lines += step.lines
            closed = step.closed
            if sent == output.count { client.finishSending() }
        }
        #expect(closed)
        #expect(lines.count == 2)
        #expect(lines.first.flatMap { try? JSONParser.parse($0) }?["id"] == 1)
        #expect(lines.last.flatMap { try? JSONParser.parse($0) }?.errorCode == "line_too_long")
    }
}
