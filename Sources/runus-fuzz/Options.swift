import Foundation

/// `--name value` options and `--flag`s of one runus-fuzz command; unknown names are errors.
struct Options {
    private var values: [String: String] = [:]
    let command: String

    static let usage = """
    usage: runus-fuzz protocol --runus PATH --model DIR [--db-template PATH] [--lines N] [--connections N]
                               [--seed N] [--out DIR] [--summary-json PATH] [--restart yes|no] [--minimize yes|no]
                               [--answer-timeout SECONDS] [--mute yes|no] [--simulated-runners N] [--scale 0..1]
           runus-fuzz files [--datasets DIR] [--count N] [--seed N] [--out DIR] [--summary-json PATH]
                            [--file-timeout SECONDS] [--max-file-bytes N]
           runus-fuzz files-worker --seed N --from I --count N [--datasets DIR]   (run by 'files')
           runus-fuzz replay --runus PATH --model DIR [--db-template PATH] [--minimize yes] FILE.lines
           runus-fuzz lines [--seed N] [--connection C] [--lines N]   (what one connection would send)
    Record 0540 (docs/decisions/0540-fuzzing-campaign.md) says what is fuzzed and checked.
    """

    private(set) var positional: [String] = []

    init(_ arguments: [String]) throws {
        guard let first = arguments.first else { throw FuzzError(Self.usage) }
        command = first
        var i = 1
        while i < arguments.count {
            let a = arguments[i]
            if a.hasPrefix("--") {
                guard i + 1 < arguments.count else { throw FuzzError("\(a) needs a value\n\(Self.usage)") }
                values[String(a.dropFirst(2))] = arguments[i + 1]
                i += 2
            } else {
                positional.append(a)
                i += 1
            }
        }
    }

    func string(_ name: String) -> String? { values[name] }

    func require(_ name: String) throws -> String {
        guard let v = values[name] else { throw FuzzError("--\(name) is required\n\(Self.usage)") }
        return v
    }

    func int(_ name: String, default d: Int) throws -> Int {
        guard let text = values[name] else { return d }
        guard let v = Int(text.replacingOccurrences(of: "_", with: "")), v >= 0 else { throw FuzzError("--\(name) \(text): expected a whole number ≥ 0") }
        return v
    }

    func double(_ name: String, default d: Double) throws -> Double {
        guard let text = values[name] else { return d }
        guard let v = Double(text), v > 0 else { throw FuzzError("--\(name) \(text): expected a positive number") }
        return v
    }

    func bool(_ name: String, default d: Bool) throws -> Bool {
        guard let text = values[name] else { return d }
        switch text {
        case "yes", "1", "true": return true
        case "no", "0", "false": return false
        default: throw FuzzError("--\(name) \(text): expected yes or no")
        }
    }
}

struct FuzzError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to standard output at once (no buffering: progress shows while it runs, and
/// nothing is lost when the process is killed).
func say(_ text: String = "") {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
