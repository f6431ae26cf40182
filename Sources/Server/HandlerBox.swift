/// A handler closure behind a reference, for keeping in a `Mutex`. A closure kept as (part of)
/// a `Mutex`'s generic value and read through `$0?.handler` inside `withLock` is written back
/// re-abstracted, one thunk deeper per read: the event loop read the reload handler on every
/// wake-up, and after 1,000,000 fuzzed lines releasing it overflowed the stack (SIGSEGV at
/// shutdown), as calling it would have on SIGHUP. A reference is copied, never re-abstracted.
final class HandlerBox<Argument>: Sendable {
    let body: @Sendable (Argument) -> Void
    init(_ body: @escaping @Sendable (Argument) -> Void) { self.body = body }
}
