#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// A line as sent on a connection, with the answers it got (for reproducers and dumps).
public struct SentLine: Sendable {
    /// 1-based position on the connection.
    public let number: Int
    public let line: FuzzLine
    public internal(set) var answers: [[UInt8]] = []

    public init(number: Int, line: FuzzLine, answers: [[UInt8]] = []) {
        self.number = number
        self.line = line
        self.answers = answers
    }
}

/// An answer that broke a rule, with the request that got it.
public struct Finding: Sendable {
    public let violation: Violation
    public let request: SentLine
    public let answer: [UInt8]
    /// The earlier state-changing lines about the same runner (a reproducer's candidates).
    public let context: [SentLine]
}

/// Counts over lines and answers, summed over connections and daemons.
public struct ProtocolTally: Sendable, Equatable {
    public var linesSent = 0
    public var answersDue = 0
    public var answered = 0
    /// Answers by outcome: `ok` or the error code.
    public var outcomes: [String: Int] = [:]
    /// Race events pushed to watching connections.
    public var pushed = 0
    /// Violations by kind (`Violation.kind`).
    public var violations: [String: Int] = [:]
    /// Violations by kind and the family of the line that got them (`expectation collision:runs.get`).
    public var violationsByFamily: [String: Int] = [:]
    /// Answers still due when the daemon died (lost with it).
    public var lostToCrashes = 0

    public init() {}

    public mutating func add(_ other: ProtocolTally) {
        linesSent += other.linesSent; answersDue += other.answersDue; answered += other.answered
        pushed += other.pushed; lostToCrashes += other.lostToCrashes
        outcomes.merge(other.outcomes, uniquingKeysWith: +)
        violations.merge(other.violations, uniquingKeysWith: +)
        violationsByFamily.merge(other.violationsByFamily, uniquingKeysWith: +)
    }
}

/// One connection's side of the campaign, without the socket: the generator's lines go out
/// (`next`), answer lines come in (`receive`), each matched to the request it is due for, in
/// order, and checked. Keeps the last lines sent and the state-changing ones, for dumps and
/// reproducers.
public struct ProtocolSession: Sendable {
    public var generator: RequestGenerator
    let checker: AnswerChecker
    /// Answers due, oldest first: the sent line's index in `due` order and its physical line.
    var due: [(sent: Int, physical: ArraySlice<UInt8>, single: Bool)] = []
    var dueStart = 0
    /// Lines sent whose answers are not all in, by `SentLine.number`.
    var open: [Int: SentLine] = [:]
    public private(set) var recent: [SentLine] = []
    public private(set) var stateLines: [SentLine] = []
    var recentBytes = 0, stateBytes = 0
    var watching = false
    var sentCount = 0
    public private(set) var tally = ProtocolTally()
    /// The first findings (at most `maximumFindings`); `tally.violations` counts them all.
    public private(set) var findings: [Finding] = []
    public static let maximumFindings = 200
    public static let findingsPerFamily = 3
    /// Bytes of recent lines and of state lines kept, at most.
    public static let recentLimit = (lines: 256, bytes: 16 << 20)
    public static let stateLimit = 32 << 20

    public init(generator: RequestGenerator, checker: AnswerChecker) {
        self.generator = generator
        self.checker = checker
    }

    /// Answers due and not yet received.
    public var outstanding: Int { due.count - dueStart }

    /// The lines whose answers have not all arrived, in order (what was in flight when a
    /// daemon died).
    public var inFlight: [SentLine] { open.values.sorted { $0.number < $1.number } }

    /// The next line to send (recorded as sent), or nil while the next one is a barrier and
    /// answers are still due.
    public mutating func next(now: Double) -> FuzzLine? {
        if outstanding > 0, generator.nextIsBarrier(now: now) { return nil }
        let line = generator.next(now: now)
        sent(line)
        return line
    }

    /// Records `line` as sent: its answers are due next, in order.
    mutating func sent(_ line: FuzzLine) {
        sentCount += 1
        let sent = SentLine(number: sentCount, line: line)
        let physical = line.answeredLines
        for p in physical { due.append((sentCount, p, physical.count == 1)) }
        tally.linesSent += 1
        tally.answersDue += physical.count
        if !physical.isEmpty { open[sentCount] = sent }
        // Pushed events may arrive before the race.watch answer (the room's clock ticks while
        // it is on its way): accept them from the moment a watch is sent.
        if !watching, Self.contains(line.bytes, Self.watchBytes) { watching = true }
        remember(sent)
    }

    /// Takes one received line (no terminator): the next due answer, or a pushed event.
    public mutating func receive(_ answer: [UInt8]) {
        if watching, !Self.mentionsOK(answer), AnswerChecker.isPush(answer) {
            tally.pushed += 1
            return
        }
        guard dueStart < due.count else {
            record(.unexpectedLine, SentLine(number: 0, line: FuzzLine(bytes: [0x0A], family: "none")), answer)
            return
        }
        let (number, physical, single) = due[dueStart]
        dueStart += 1
        if dueStart > 4096, dueStart * 2 > due.count { due.removeFirst(dueStart); dueStart = 0 }
        guard var sent = open[number] else { return }
        sent.answers.append(answer)
        let expectation = single ? sent.line.expectation : .valid
        var (outcome, violation) = checker.check(answer, id: sent.line.declaredID ?? .null, expectation: expectation)
        if case .idMismatch? = violation {
            // The declared id is not what the daemon must echo when the line does not parse as
            // an object: the line decides.
            (outcome, violation) = checker.check(answer, id: FuzzLine.echoedID(of: physical), expectation: expectation)
        }
        tally.answered += 1
        tally.outcomes[outcome, default: 0] += 1
        if let violation { record(violation, sent, answer) }
        // Only race answers teach the generator anything (ids, tokens); the others are not
        // parsed a second time.
        if outcome == "ok", sent.line.family.hasPrefix("race:"), let value = try? JSONParser.parse(answer) {
            generator.learn(answer: value, for: sent.line)
        }
        if sent.answers.count == sent.line.answerCount { open[number] = nil } else { open[number] = sent }
        if sent.line.keepsState, let k = stateLines.lastIndex(where: { $0.number == number }) { stateLines[k] = sent }
    }

    /// The daemon died: what is still due is lost.
    public mutating func abandon() {
        tally.lostToCrashes += outstanding
        dueStart = due.count
    }

    mutating func record(_ violation: Violation, _ sent: SentLine, _ answer: [UInt8]) {
        tally.violations[violation.kind, default: 0] += 1
        let key = "\(violation.kind) \(sent.line.family)"
        tally.violationsByFamily[key, default: 0] += 1
        // A few of each kind and family, so that a frequent one does not hide the rare ones.
        guard findings.count < Self.maximumFindings, tally.violationsByFamily[key]! <= Self.findingsPerFamily else { return }
        let context = sent.line.user.map { user in
            Array(stateLines.filter { $0.number < sent.number && $0.line.user == user }.suffix(400))
        } ?? []
        findings.append(Finding(violation: violation, request: sent, answer: answer, context: context))
    }

    mutating func remember(_ sent: SentLine) {
        recent.append(sent)
        recentBytes += sent.line.bytes.count
        while recent.count > Self.recentLimit.lines || recentBytes > Self.recentLimit.bytes {
            recentBytes -= recent.removeFirst().line.bytes.count
        }
        guard sent.line.keepsState else { return }
        stateLines.append(sent)
        stateBytes += sent.line.bytes.count
        while stateBytes > Self.stateLimit, stateLines.count > 1 { stateBytes -= stateLines.removeFirst().line.bytes.count }
    }

    /// Answers always hold `"ok":`; a line without those bytes is not one (a quote inside a
    /// JSON string is escaped, so the bytes cannot come from a string).
    static func mentionsOK(_ line: [UInt8]) -> Bool { contains(line, okBytes) }

    static let okBytes: [UInt8] = Array("\"ok\":".utf8)
    static let watchBytes: [UInt8] = Array("race.watch".utf8)

    static func contains(_ line: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard line.count >= pattern.count, !pattern.isEmpty else { return false }
        // memchr for the first byte, memcmp for the rest (Glibc's module has no memmem).
        return line.withUnsafeBytes { l in
            pattern.withUnsafeBytes { p in
                let base = l.baseAddress!
                var at = 0
                let last = l.count - p.count
                while at <= last, let hit = memchr(base + at, Int32(p[0]), last - at + 1) {
                    let i = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + i, p.baseAddress!, p.count) == 0 { return true }
                    at = i + 1
                }
                return false
            }
        }
    }
}
