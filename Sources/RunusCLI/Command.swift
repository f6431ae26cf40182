#if canImport(Glibc)
import Glibc
#endif

/// Exit codes of `runus`: 0 success, 1 failure (bad data, I/O), 64 usage (EX_USAGE).
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 64
}

/// Where a command writes. Tests capture it; the executable writes to the process streams.
public protocol OutputSink: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
}

/// The process's stdout and stderr, unbuffered (a readiness line must reach a pipe at once).
public final class StandardStreams: OutputSink {
    public init() {}
    public func out(_ text: String) { write(1, text) }
    public func err(_ text: String) { write(2, text) }
    private func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}

/// Captures output in memory (tests).
public final class CapturedOutput: OutputSink {
    public private(set) var stdout = ""
    public private(set) var stderr = ""
    public init() {}
    public func out(_ text: String) { stdout += text }
    public func err(_ text: String) { stderr += text }
}

/// One `runus` sub-command.
public protocol Command: SendableMetatype {
    static var name: String { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// Usage line after `runus NAME`, e.g. "--db PATH [--seed N]".
    static var usage: String { get }
    /// Longer help text (may be empty).
    static var discussion: String { get }
    static var parser: ArgumentParser { get }
    /// Runs with parsed arguments; throws `UsageError` for usage problems, anything else for failures.
    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode
}

extension Command {
    public static var discussion: String { "" }

    static func help() -> String {
        var text = "\(abstract)\n\nUsage: runus \(name) \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOptions:\n\(parser.optionsHelp())\n"
        return text
    }
}
