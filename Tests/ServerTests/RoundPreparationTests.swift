import Foundation
import RunusCore
import Synchronization
import Testing
@testable import Server

/// Rounds (record 0545): with a `RoundPreparation`, every request is answered inside the
/// preparation of a round that was shown its line, after that line was read.
@Suite("Round preparation")
struct RoundPreparationTests {
    /// Numbers rounds, keeps the lines each was shown, and binds the number while answering.
    final class Recorder: RoundPreparation {
        @TaskLocal static var round: Int?
        let maximumLineBytes: Int
        let callsAnswer: Bool
        private let shown = Mutex<[[String]]>([])

        init(maximumLineBytes: Int = 4096, callsAnswer: Bool = true) {
            self.maximumLineBytes = maximumLineBytes
            self.callsAnswer = callsAnswer
        }

        func prepare(lines: [[UInt8]], answer: () -> Void) {
            let number = shown.withLock { all in
                all.append(lines.map { String(decoding: $0, as: UTF8.self) })
                return all.count - 1
            }
            if callsAnswer { Self.$round.withValue(number, operation: answer) }
        }

        func lines(of round: Int) -> [String] { shown.withLock { $0.indices.contains(round) ? $0[round] : [] } }
        var rounds: Int { shown.withLock { $0.count } }
    }

    /// A server whose `probe` answers the round it ran in and whether that round was shown
    /// its line (which carries a unique `n`).
    static func server(_ recorder: Recorder, linesPerTurn: Int? = nil) throws -> TestServer {
        try TestServer(configure: { configuration in
            configuration.roundPreparation = recorder
            if let linesPerTurn { configuration.linesPerTurn = linesPerTurn }
        }, register: { router in
            router.register("probe") { request in
                let n = try request.int("n")
                guard let round = Recorder.round else { return ["round": .null, "shown": false] }
                let shown = recorder.lines(of: round).contains { $0.contains("\"n\":\(n),") }
                return ["round": .number(Double(round)), "shown": .bool(shown), "n": .number(Double(n))]
            }
        })
    }

    static func probe(_ n: Int, pad: Int = 0) -> String {
        #"{"op":"probe","n":\#(n),"pad":"\#(String(repeating: "x", count: pad))"}"#
    }

    @Test("pipelined lines from several connections are each answered in a round shown its line, in order")
    func pipelined() throws {
        let recorder = Recorder()
        let harness = try Self.server(recorder)
        defer { harness.stop() }
        let clients = try (0..<4).map { _ in try harness.client() }
        for (c, client) in clients.enumerated() {
            let lines = (0..<5).map { Self.probe(c * 100 + $0) }.joined(separator: "\n") + "\n"
            try client.sendRaw(Array(lines.utf8))
        }
        for (c, client) in clients.enumerated() {
            for i in 0..<5 {
                let answer = try client.readAnswer()
                #expect(answer["ok"] == true)
                #expect(answer["result"]?["n"]?.doubleValue == Double(c * 100 + i), "out of order")
                #expect(answer["result"]?["shown"] == true, "line \(c * 100 + i) answered in a round that was not shown it")
            }
        }
        #expect(recorder.rounds >= 1)
    }

    @Test("lines past a turn are shown in the round that answers them")
    func turns() throws {
        let recorder = Recorder()
        let harness = try Self.server(recorder, linesPerTurn: 2)
        defer { harness.stop() }
        let client = try harness.client()
        try client.sendRaw(Array(((0..<7).map { Self.probe($0) }.joined(separator: "\n") + "\n").utf8))
        var rounds: Set<Double> = []
        for i in 0..<7 {
            let answer = try client.readAnswer()
            #expect(answer["result"]?["n"]?.doubleValue == Double(i))
            #expect(answer["result"]?["shown"] == true, "line \(i)")
            if let round = answer["result"]?["round"]?.doubleValue { rounds.insert(round) }
        }
        #expect(rounds.count >= 4, "7 lines at 2 a turn took \(rounds.count) rounds")
    }

    @Test("a line longer than the preparation's limit is answered, in a round, without being shown")
    func longLine() throws {
        let recorder = Recorder(maximumLineBytes: 64)
        let harness = try Self.server(recorder)
        defer { harness.stop() }
        let client = try harness.client()
        try client.send(line: Self.probe(1, pad: 100))
        let long = try client.readAnswer()
        #expect(long["ok"] == true)
        #expect(long["result"]?["shown"] == false)
        #expect(long["result"]?["round"] != .null, "answered outside a round")
        try client.send(line: Self.probe(2))
        #expect(try client.readAnswer()["result"]?["shown"] == true)
    }

    @Test("a preparation that never calls answer leaves nobody waiting")
    func forgetfulPreparation() throws {
        let recorder = Recorder(callsAnswer: false)
        let harness = try Self.server(recorder)
        defer { harness.stop() }
        let client = try harness.client()
        try client.send(line: Self.probe(3))
        let answer = try client.readAnswer()
        #expect(answer["ok"] == true)
        #expect(answer["result"]?["round"] == .null)
        #expect(try client.call(["op": "health"])["ok"] == true)
    }
}
