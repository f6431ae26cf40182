import Foundation
import RunusCore
import Server
import Fuzzing

/// One line longer than the daemon's limit (4 MiB by default) on a connection of its own: the
/// protocol says it gets exactly one `line_too_long` answer and then the connection is closed.
enum LineLimitProbe {
    struct Result: CustomStringConvertible {
        let passed: Bool
        let detail: String
        var description: String { (passed ? "ok: " : "FAILED: ") + detail }
    }

    static func run(socket: String, checker: AnswerChecker, bytes: Int = 5 << 20) -> Result {
        do {
            let client = try LineClient(address: .unix(path: socket), timeout: .seconds(30))
            defer { client.close() }
            var line = Array("{\"id\":1,\"op\":\"health\",\"pad\":\"".utf8)
            line += [UInt8](repeating: UInt8(ascii: "a"), count: bytes)
            line += Array("\"}\n".utf8)
            var sent = 0
            var answers: [[UInt8]] = []
            var closed = false, finished = false
            let deadline = Date().addingTimeInterval(60)
            while !closed, Date() < deadline {
                let step = try client.exchange(line, sent: &sent, timeout: .milliseconds(250))
                answers += step.lines
                closed = step.closed
                if sent == line.count, !finished { client.finishSending(); finished = true }
            }
            guard closed else { return Result(passed: false, detail: "the connection stayed open after a \(bytes)-byte line") }
            guard answers.count == 1 else { return Result(passed: false, detail: "\(answers.count) answers to one line over the limit") }
            let (outcome, violation) = checker.check(answers[0], id: .null, expectation: .error("line_too_long"))
            if let violation { return Result(passed: false, detail: "\(violation)") }
            return Result(passed: true, detail: "one \(outcome) answer, then the connection closed")
        } catch {
            return Result(passed: false, detail: "\(error)")
        }
    }
}
