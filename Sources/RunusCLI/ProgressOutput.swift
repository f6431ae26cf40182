#if canImport(Glibc)
import Glibc
#endif
import Training

/// Progress on stderr (import, labelled tracks): a bar redrawn in place when stderr is a terminal, else one line
/// per tenth of the work (logs and pipes get a few readable lines, not carriage returns).
final class ProgressOutput {
    let label: String
    let output: OutputSink
    let interactive: Bool
    private var bar: ProgressBar?
    private var lastTenth = -1

    init(label: String, output: OutputSink, interactive: Bool) {
        self.label = label; self.output = output; self.interactive = interactive
    }

    /// Whether `output` writes to the process's stderr and that is a terminal.
    static func isTerminal(_ output: OutputSink) -> Bool { output is StandardStreams && isatty(2) == 1 }

    func update(done: Int, total: Int) {
        if interactive {
            if bar == nil { bar = ProgressBar(total: total, label: label, output: output) }
            bar?.update(done)
            return
        }
        let tenth = total == 0 ? 10 : done * 10 / total
        guard tenth != lastTenth else { return }
        lastTenth = tenth
        output.err("\(label): \(done)/\(total) (\(tenth * 10) %)\n")
    }

    func finish() { bar?.finish() }
}

extension ProgressOutput: ProgressReporter {}
