#if canImport(Glibc)
import Glibc
#endif

/// A failure of a command that is not a usage error (exit code 1).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A progress bar on stderr, redrawn in place.
final class ProgressBar {
    let total: Int
    let label: String
    let output: OutputSink
    private var lastPercent = -1

    init(total: Int, label: String, output: OutputSink) {
        self.total = max(1, total); self.label = label; self.output = output
    }

    func update(_ done: Int) {
        let percent = done * 100 / total
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = done * width / total
        output.err("\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                   + "] \(done)/\(total)")
    }

    func finish() { output.err("\n") }
}
