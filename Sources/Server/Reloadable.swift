import Synchronization

/// A value that can be replaced while other threads read it: readers get either the old or
/// the new value, whole, never a mix (an atomic swap under a lock held for one copy).
/// Work that started with the old value finishes with it.
///
///     let model = Reloadable(initialScorer)
///     model.current.score(…)           // any thread
///     let old = model.replace(with: newScorer)
public final class Reloadable<Value: Sendable>: Sendable {
    private let box: Mutex<Value>

    public init(_ value: Value) { box = Mutex(value) }

    /// The value now.
    public var current: Value { box.withLock { $0 } }

    /// Installs `value` and returns the one it replaced.
    @discardableResult
    public func replace(with value: Value) -> Value {
        box.withLock { current in
            let old = current
            current = value
            return old
        }
    }
}
