import Dispatch

/// Runs `count` independent pure jobs on all cores and returns the results in index order.
public enum ParallelMap {
    public static func map<T: Sendable>(count: Int, _ body: @Sendable (Int) -> T) -> [T] {
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
