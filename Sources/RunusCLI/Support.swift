import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A failure of a command that is not a usage error (exit code 1).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `count` independent pure jobs on all cores and returns the results in index order.
enum ParallelMap {
    static func map<T: Sendable>(count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        let results = ResultSlots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in results.set(i, body(i)) }
        return results.values()
    }

    /// Slots written once each by distinct iterations; read after all iterations finished.
    /// Raw memory rather than an Array: concurrent writes to distinct elements of one Array
    /// would be overlapping accesses to the same variable.
    final class ResultSlots<T>: @unchecked Sendable {
        private let slots: UnsafeMutablePointer<T?>
        private let count: Int
        init(count: Int) {
            self.count = count
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil, count: count)
        }
        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }
        func set(_ i: Int, _ value: T) { slots[i] = value }
        func values() -> [T] { (0..<count).map { slots[$0]! } }
    }
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
