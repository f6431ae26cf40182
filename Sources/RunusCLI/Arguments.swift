#if canImport(Glibc)
import Glibc
#endif
import Storage

/// A small argument parser: each command declares its options, the parser checks the command
/// line against them and produces help text from the same declarations (one source of truth).
///
/// Accepted forms: `--name value`, `--name=value`, boolean `--flag`, and positional arguments.
/// `--` ends options. Unknown options, missing values, repeated single options and values that do
/// not parse are usage errors (exit 64) naming the option and the value.

/// How an option takes its value.
public enum OptionKind: Sendable, Equatable {
    /// `--verbose`: present or absent.
    case flag
    /// `--db PATH`: one value; `defaultValue` is used when absent (nil: the option is required
    /// unless `optional`).
    case value(placeholder: String, defaultValue: String?, optional: Bool)
    /// `--listen ADDR` given any number of times.
    case repeated(placeholder: String)
}

public struct OptionSpec: Sendable {
    public let name: String
    public let kind: OptionKind
    public let help: String

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help)
    }
    /// A required option (no default).
    public static func required(_ name: String, _ placeholder: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder, defaultValue: nil, optional: false), help: help)
    }
    /// An option with a default value.
    public static func value(_ name: String, _ placeholder: String, default value: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder, defaultValue: value, optional: false), help: help)
    }
    /// An option that may be absent.
    public static func optional(_ name: String, _ placeholder: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder, defaultValue: nil, optional: true), help: help)
    }
    public static func repeated(_ name: String, _ placeholder: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .repeated(placeholder: placeholder), help: help)
    }
}

/// A usage error: the message names what was wrong; the command's usage follows it.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The parsed command line of one command.
public struct ParsedArguments: Sendable {
    public internal(set) var values: [String: [String]] = [:]
    public internal(set) var flags: Set<String> = []
    public internal(set) var positional: [String] = []

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The option's value (its default when absent and it has one).
    public func string(_ name: String) -> String? { values[name]?.last }

    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else { throw UsageError("--\(name): '\(text)' is not an integer") }
        if let range, !range.contains(value) {
            throw UsageError("--\(name): \(value) is outside [\(range.lowerBound), \(range.upperBound)]")
        }
        return value
    }

    public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), value.isFinite else { throw UsageError("--\(name): '\(text)' is not a number") }
        if let range, !range.contains(value) {
            throw UsageError("--\(name): \(value) is outside [\(range.lowerBound), \(range.upperBound)]")
        }
        return value
    }

    /// The option's value, which the declaration guarantees is present.
    public func require(_ name: String) throws -> String {
        guard let value = string(name) else { throw UsageError("missing --\(name)") }
        return value
    }

    /// `--name`, a database that must exist already: commands that only read one refuse a
    /// mistyped SQLite path instead of creating an empty database there. A PostgreSQL URI is
    /// returned as given: connecting to it is the check, and its failure names the server and
    /// database (never the password).
    public func existingDatabase(_ name: String) throws -> String {
        try Self.existingDatabase(try require(name), label: "--\(name)")
    }

    /// `path` when it is a PostgreSQL URI or an existing file; `label` names the argument.
    static func existingDatabase(_ path: String, label: String) throws -> String {
        if case .postgres = StoreLocation(path) { return path }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw UsageError("\(label) \(path): no such database (this command reads one; make it with 'runus simulate' or 'runus import')")
        }
        return path
    }
}

public struct ArgumentParser: Sendable {
    public let options: [OptionSpec]
    /// Placeholder names of accepted positional arguments, e.g. ["LINE..."]; empty: none allowed.
    public let positionals: [String]
    public let allowsManyPositionals: Bool

    public init(options: [OptionSpec], positionals: [String] = [], allowsManyPositionals: Bool = false) {
        self.options = options
        self.positionals = positionals
        self.allowsManyPositionals = allowsManyPositionals
    }

    public func parse(_ arguments: [String]) throws -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var seenSingle: Set<String> = []
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("--") || argument == "-" {
                result.positional.append(argument)
                continue
            }
            if argument == "--" { onlyPositional = true; continue }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option --\(name)")
            }
            switch spec.kind {
            case .flag:
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                result.flags.insert(name)
            case .value, .repeated:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if case .value = spec.kind {
                    guard !seenSingle.contains(name) else { throw UsageError("--\(name) given more than once") }
                    seenSingle.insert(name)
                }
                result.values[name, default: []].append(value)
            }
        }
        if !allowsManyPositionals, result.positional.count > positionals.count {
            throw UsageError("unexpected argument '\(result.positional[positionals.count])'")
        }
        for spec in options {
            if case .value(_, let defaultValue, let optional) = spec.kind, result.values[spec.name] == nil {
                if let defaultValue {
                    result.values[spec.name] = [defaultValue]
                } else if !optional {
                    throw UsageError("missing required option --\(spec.name)")
                }
            }
        }
        return result
    }

    /// The options section of a command's help, one option a line, aligned.
    public func optionsHelp() -> String {
        let rows: [(String, String)] = options.map { spec in
            switch spec.kind {
            case .flag:
                return ("--\(spec.name)", spec.help)
            case .value(let placeholder, let defaultValue, let optional):
                let suffix = defaultValue.map { " (default: \($0))" } ?? (optional ? "" : " (required)")
                return ("--\(spec.name) \(placeholder)", spec.help + suffix)
            case .repeated(let placeholder):
                return ("--\(spec.name) \(placeholder)", spec.help + " (repeatable)")
            }
        } + [("--help", "Show this help.")]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
            .joined(separator: "\n")
    }
}
