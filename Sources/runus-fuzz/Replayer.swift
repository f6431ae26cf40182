import Foundation
import RunusCore
import Server
import Fuzzing

/// Replays request lines one at a time against a fresh daemon on a fresh copy of the template
/// database: does the sequence crash it, and with which signature? Race ids and participant
/// tokens that the original answers named are swapped for the ones the replay's daemon answers.
struct Replayer {
    let runus: String
    let model: String
    let template: String?
    let directory: String
    /// Longest wait for one answer, seconds.
    var answerTimeout = 30.0

    struct Result {
        var died: Bool
        /// An answer did not come within `answerTimeout` while the daemon was alive.
        var hung = false
        /// Index of the line whose answer never came (the trigger), when the daemon died.
        var deathIndex: Int?
        var signature: CrashSignature?
        var stderr: String = ""
        /// The answers to the last line, when the daemon lived.
        var lastAnswers: [[UInt8]] = []
    }

    private(set) var replays = 0

    /// A fresh database file: the template's bytes, or none.
    func freshDatabase(_ name: String) throws -> String {
        let path = "\(directory)/\(name).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        if let template { try FileManager.default.copyItem(atPath: template, toPath: path) }
        return path
    }

    mutating func replay(_ lines: [SentLine]) throws -> Result {
        replays += 1
        let db = try freshDatabase("replay")
        let daemon = try DaemonProcess(runus: runus, db: db, model: model, socket: "\(directory)/replay.sock",
                                       stderrPath: "\(directory)/replay.stderr")
        let client = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(Int64(answerTimeout)))
        defer { client.close() }
        var substitutions: [(old: [UInt8], new: [UInt8])] = []
        var last: [[UInt8]] = []
        for (i, sent) in lines.enumerated() {
            var bytes = sent.line.bytes
            for (old, new) in substitutions { bytes = Self.replacing(old, with: new, in: bytes) }
            var answers: [[UInt8]] = []
            do {
                try client.sendRaw(bytes)
                for _ in 0..<FuzzLine(bytes: bytes, family: "").answerCount {
                    var line = try client.readLine()
                    while let l = line, Self.isPush(l) { line = try client.readLine() }
                    guard let l = line else { throw FuzzError("closed") }
                    answers.append(l)
                }
            } catch {
                if daemon.status == .running, let s = ProtocolCampaign.trapSignal(inStderrOf: daemon) {
                    // Trapped, and the backtracer is stuck: a crash all the same.
                    _ = daemon.waitForExit(limit: 20)
                    daemon.signal(SIGKILL)
                    _ = daemon.waitForExit(limit: 10)
                    let text = daemon.stderrText()
                    return Result(died: true, deathIndex: i, signature: CrashSignature(stderr: text, signal: s), stderr: text)
                }
                if daemon.status == .running, case ServerError.timedOut? = error as? ServerError {
                    daemon.signal(SIGKILL)
                    _ = daemon.waitForExit(limit: 10)
                    return Result(died: false, hung: true, deathIndex: i)
                }
                let status = daemon.waitForExit(limit: 60)
                if case .signalled(let s) = status {
                    let text = daemon.stderrText()
                    return Result(died: true, deathIndex: i, signature: CrashSignature(stderr: text, signal: s), stderr: text)
                }
                _ = daemon.stop()
                return Result(died: false)
            }
            substitutions += Self.learned(original: sent.answers, replayed: answers)
            last = answers
        }
        // Let the race clock tick once (a crash there has no request of its own).
        _ = try? client.call(["op": "health"])
        let status = daemon.stop()
        if case .signalled(let s) = status {
            let text = daemon.stderrText()
            return Result(died: true, deathIndex: nil, signature: CrashSignature(stderr: text, signal: s), stderr: text)
        }
        return Result(died: false, lastAnswers: last)
    }

    static func isPush(_ line: [UInt8]) -> Bool { AnswerChecker.isPush(line) }

    /// Race ids and tokens answered originally and in the replay, as quoted strings to swap.
    static func learned(original: [[UInt8]], replayed: [[UInt8]]) -> [(old: [UInt8], new: [UInt8])] {
        var out: [(old: [UInt8], new: [UInt8])] = []
        for (a, b) in zip(original, replayed) {
            guard let x = try? JSONParser.parse(a), let y = try? JSONParser.parse(b) else { continue }
            for key in ["race_id", "participant_token"] {
                if let old = x["result"]?[key]?.stringValue, let new = y["result"]?[key]?.stringValue, old != new {
                    out.append((JSONWriter.bytes(.string(old)), JSONWriter.bytes(.string(new))))
                }
            }
        }
        return out
    }

    static func replacing(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard !old.isEmpty, bytes.count >= old.count else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if i + old.count <= bytes.count, bytes[i] == old[0], bytes[i..<(i + old.count)].elementsEqual(old) {
                out += new
                i += old.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
