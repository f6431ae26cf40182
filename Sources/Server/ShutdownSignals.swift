#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// SIGTERM/SIGINT to a clean stop (and SIGHUP to a reload), by the self-pipe trick: the C handler only records the
/// signal and writes to the running server's eventfd (both async-signal-safe), and the loop
/// does the rest on its own thread. Unlike signalfd this works whatever the signal masks of
/// other threads are; unlike a DispatchSource it has no window where the signal is ignored.
enum ShutdownSignals {
    static let signals: [Int32] = [SIGTERM, SIGINT]

    /// The last signal received and not yet handled (0: none).
    private static let pending = Atomic<Int32>(0)
    /// The eventfd of the running server (-1: none), read by the C handler.
    private static let wakeFD = Atomic<Int32>(-1)
    /// The one server that owns the signals, and what it runs on one.
    private static let owner = Mutex<(server: ObjectIdentifier, handler: HandlerBox<Int32>)?>(nil)

    static func isOwned(by server: ObjectIdentifier) -> Bool { owner.withLock { $0?.server == server } }

    static func handler(for server: ObjectIdentifier) -> (@Sendable (Int32) -> Void)? {
        guard let current = owner.withLock({ $0 }), current.server == server else { return nil }
        return current.handler.body
    }

    /// Makes `server` the owner of SIGTERM/SIGINT (a process has one set of handlers; the
    /// latest caller wins).
    static func install(for server: ObjectIdentifier, _ handler: @escaping @Sendable (Int32) -> Void) {
        owner.withLock { $0 = (server, HandlerBox(handler)) }
        for signalNumber in signals {
            Sys.installHandler(signalNumber, { number in
                let savedErrno = Glibc.errno
                ShutdownSignals.pending.store(number, ordering: .sequentiallyConsistent)
                let fd = ShutdownSignals.wakeFD.load(ordering: .sequentiallyConsistent)
                if fd >= 0 { Sys.signalCounter(fd) }
                Glibc.errno = savedErrno
            })
        }
    }

    static func attach(wakeFD fd: Int32, for server: ObjectIdentifier) {
        guard isOwned(by: server) else { return }
        wakeFD.store(fd, ordering: .sequentiallyConsistent)
        if pending.load(ordering: .sequentiallyConsistent) != 0 { Sys.signalCounter(fd) }
    }

    /// Called when the server's loop ends: signals get their default action back.
    static func detach(for server: ObjectIdentifier) {
        let reloading = reloadOwner.withLock { current in
            guard current?.server == server else { return false }
            current = nil
            return true
        }
        if reloading {
            reloadWakeFD.store(-1, ordering: .sequentiallyConsistent)
            Sys.restoreDefault(SIGHUP)
        }
        let owned = owner.withLock { current in
            guard current?.server == server else { return false }
            current = nil
            return true
        }
        guard owned else { return }
        wakeFD.store(-1, ordering: .sequentiallyConsistent)
        signals.forEach(Sys.restoreDefault)
    }

    /// SIGHUP received and not yet handled.
    private static let pendingReload = Atomic<Bool>(false)
    private static let reloadOwner = Mutex<(server: ObjectIdentifier, handler: HandlerBox<Void>)?>(nil)
    /// The eventfd of the server owning SIGHUP (-1: none): independent of SIGTERM's owner.
    private static let reloadWakeFD = Atomic<Int32>(-1)

    static func reloadHandler(for server: ObjectIdentifier) -> (@Sendable () -> Void)? {
        guard let current = reloadOwner.withLock({ $0 }), current.server == server else { return nil }
        let handler = current.handler
        return { handler.body(()) }
    }

    /// Makes SIGHUP set a flag and wake the server (through `attachReload`), whose loop 0 then
    /// runs `handler` on the worker pool.
    static func installReload(for server: ObjectIdentifier, _ handler: @escaping @Sendable () -> Void) {
        reloadOwner.withLock { $0 = (server, HandlerBox { _ in handler() }) }
        Sys.installHandler(SIGHUP, { _ in
            let savedErrno = Glibc.errno
            ShutdownSignals.pendingReload.store(true, ordering: .sequentiallyConsistent)
            let fd = ShutdownSignals.reloadWakeFD.load(ordering: .sequentiallyConsistent)
            if fd >= 0 { Sys.signalCounter(fd) }
            Glibc.errno = savedErrno
        })
    }

    static func attachReload(wakeFD fd: Int32, for server: ObjectIdentifier) {
        guard reloadOwner.withLock({ $0?.server == server }) else { return }
        reloadWakeFD.store(fd, ordering: .sequentiallyConsistent)
        if pendingReload.load(ordering: .sequentiallyConsistent) { Sys.signalCounter(fd) }
    }

    static func takePendingReload() -> Bool { pendingReload.exchange(false, ordering: .sequentiallyConsistent) }

    static func takePending() -> Int32? {
        let value = pending.exchange(0, ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }
}
