import Foundation
import Synchronization
import RunusCore
import Server
import Fuzzing

/// Lines left to send over all connections of a campaign.
final class LineBudget: Sendable {
    private let left: Atomic<Int>
    /// Set when one connection saw the daemon go: the others stop too.
    let stop = Atomic<Bool>(false)

    init(_ lines: Int) { left = Atomic(lines) }

    /// Takes one line of the budget, never below zero: a failed take that went negative made a
    /// later `giveBack` restore to 0 instead of 1, and a connection lost that line (the slice
    /// then sent 9,999 of 10,000 lines).
    func take() -> Bool {
        if stop.load(ordering: .relaxed) { return false }
        var current = left.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = left.compareExchange(expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Returns a line taken but not sent.
    func giveBack() { left.add(1, ordering: .relaxed) }

    var remaining: Int { max(0, left.load(ordering: .relaxed)) }
}

/// One connection of the campaign: a session's lines pipelined over a socket, never more than
/// `window` answers due or `maximumPending` bytes unsent, every answer checked as it comes.
final class ConnectionWorker: @unchecked Sendable {
    enum End: Equatable {
        /// Budget used and every answer in.
        case done
        /// Another connection ended the round.
        case stopped
        /// The daemon closed the connection (it died, or closed it after line_too_long).
        case closed
        /// Answers were due and nothing came for `answerTimeout` seconds.
        case hang
        /// The connection could not be used (connect failed).
        case failed(String)
    }

    var session: ProtocolSession
    let socket: String
    let budget: LineBudget
    let window: Int
    let answerTimeout: Double
    static let maximumPending = 4 << 20
    private(set) var end: End = .done
    /// Seconds the oldest due answer has waited when the worker gave up (hangs).
    private(set) var waited = 0.0

    init(session: ProtocolSession, socket: String, budget: LineBudget, window: Int, answerTimeout: Double) {
        self.session = session
        self.socket = socket
        self.budget = budget
        self.window = window
        self.answerTimeout = answerTimeout
    }

    func run() {
        let client: LineClient
        do {
            client = try LineClient(address: .unix(path: socket), timeout: .seconds(10))
        } catch {
            end = .failed("\(error)")
            return
        }
        defer { client.close() }
        var output: [UInt8] = []
        var sent = 0
        var budgetLeft = true
        var lastProgress = Date()
        while true {
            if budget.stop.load(ordering: .relaxed) { end = .stopped; return }
            while budgetLeft, session.outstanding < window, output.count - sent < Self.maximumPending {
                guard budget.take() else { budgetLeft = false; break }
                guard let line = session.next(now: Date().timeIntervalSince1970) else { budget.giveBack(); break }  // a barrier waits
                output += line.bytes
            }
            if sent > 1 << 20, sent * 2 > output.count {
                output.removeFirst(sent)
                sent = 0
            }
            if !budgetLeft, session.outstanding == 0, sent == output.count { end = .done; return }
            let before = sent
            let step: LineClient.Exchange
            do {
                step = try client.exchange(output, sent: &sent, timeout: .milliseconds(250))
            } catch {
                end = .closed
                return
            }
            for line in step.lines { session.receive(line) }
            if !step.lines.isEmpty || sent != before { lastProgress = Date() }
            if step.closed { end = .closed; return }
            let idle = -lastProgress.timeIntervalSinceNow
            if session.outstanding > 0, idle > answerTimeout {
                waited = idle
                end = .hang
                return
            }
        }
    }
}
