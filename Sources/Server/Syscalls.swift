#if canImport(Glibc)
import Glibc
#endif
import CSysShims

/// An operating-system call that failed: the call's name, its `errno` and the C library's text.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The libc function that failed, with its subject where useful ("bind 127.0.0.1:80").
    public let call: String
    /// The `errno` value the call left.
    public let errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// Every libc call the module makes goes through here (swift-system's `Syscalls.swift` habit):
/// `EINTR` is retried in one place, failures become `SystemError`, and "would block" becomes
/// `nil` so callers of non-blocking descriptors never compare errno themselves.
enum Sys {
    /// Runs `body` until it does not fail with EINTR; -1 with any other errno throws.
    @inline(__always)
    static func retrying<T: BinaryInteger>(_ call: @autoclosure () -> String, _ body: () -> T) throws -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemError(call: call(), errno: code)
        }
    }

    /// Like `retrying`, but EAGAIN/EWOULDBLOCK gives nil.
    @inline(__always)
    static func nonBlocking<T: BinaryInteger>(_ call: @autoclosure () -> String, _ body: () -> T) throws -> T? {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemError(call: call(), errno: code)
        }
    }

    // MARK: descriptors

    /// Closes `fd`. Not retried on EINTR: on Linux the descriptor is released even then, and a
    /// retry could close a descriptor another thread has just been given.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Reads at most `count` bytes; 0 means end of stream, nil means "would block".
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) throws -> Int? {
        try nonBlocking("read", { Glibc.read(fd, buffer, count) })
    }

    /// Sends with MSG_NOSIGNAL so a vanished peer gives EPIPE, never SIGPIPE; nil means "would block".
    static func send(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) throws -> Int? {
        try nonBlocking("send", { Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL)) })
    }

    /// Waits for `events` on one descriptor; returns the revents (0 on timeout).
    /// - Parameter timeoutMilliseconds: -1 waits forever, otherwise 0...Int32.max.
    static func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) throws -> Int16 {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = try retrying("poll", { Glibc.poll(&entry, 1, timeoutMilliseconds) })
        return ready == 0 ? 0 : entry.revents
    }

    // MARK: sockets

    static func socket(domain: Int32, type: Int32) throws -> Int32 {
        let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        return try retrying("socket", { Glibc.socket(domain, type | flags, 0) })
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32, label: String) throws {
        var v = value
        _ = try retrying("setsockopt \(label)", {
            Glibc.setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
        })
    }

    static func getOption(_ fd: Int32, level: Int32, name: Int32, label: String) throws -> Int32 {
        var v: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try retrying("getsockopt \(label)", { Glibc.getsockopt(fd, level, name, &v, &length) })
        return v
    }

    static func bind(_ fd: Int32, _ address: SocketAddress) throws {
        _ = try retrying("bind \(address)", {
            address.withSockaddr { pointer, length in Glibc.bind(fd, pointer, length) }
        })
    }

    static func listen(_ fd: Int32, backlog: Int32) throws {
        _ = try retrying("listen", { Glibc.listen(fd, backlog) })
    }

    /// Accepts one connection as a non-blocking, close-on-exec descriptor; nil when none is
    /// pending. ECONNABORTED (the peer gave up while queued) also gives nil.
    static func accept(_ fd: Int32) throws -> Int32? {
        let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        while true {
            let result = accept4(fd, nil, nil, flags)
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK || code == ECONNABORTED { return nil }
            throw SystemError(call: "accept4", errno: code)
        }
    }

    /// The address a TCP peer is counted under for `auth` failures (`AuthThrottle`): its IPv4
    /// address (from an IPv4-mapped IPv6 one too), or the /64 prefix of an IPv6 one, as
    /// OpenSSH's `PerSourcePenalties` counts them, after a family byte; nil when the socket has
    /// no such peer.
    static func peerSource(_ fd: Int32) -> [UInt8]? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: &storage) { raw in raw.load(as: sockaddr_in.self).sin_addr }
            return [4] + withUnsafeBytes(of: address) { Array($0) }
        case AF_INET6:
            let address = withUnsafeBytes(of: &storage) { raw in raw.load(as: sockaddr_in6.self).sin6_addr }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return [4] + bytes[12..<16] }
            return [6] + bytes[0..<8]
        default:
            return nil
        }
    }

    /// Starts a connect on a non-blocking socket: true when connected at once, false when it is
    /// in progress (wait for POLLOUT, then read SO_ERROR).
    static func connect(_ fd: Int32, _ address: SocketAddress) throws -> Bool {
        let result = address.withSockaddr { pointer, length in Glibc.connect(fd, pointer, length) }
        if result == 0 { return true }
        let code = Glibc.errno
        // EINTR on connect: the attempt continues asynchronously, like EINPROGRESS.
        if code == EINPROGRESS || code == EINTR || code == EAGAIN { return false }
        throw SystemError(call: "connect \(address)", errno: code)
    }

    static func shutdownWrite(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    static func localAddress(_ fd: Int32) throws -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                try retrying("getsockname", { Glibc.getsockname(fd, sa, &length) })
            }
        }
        return SocketAddress(storage: storage)
    }

    // MARK: epoll and eventfd

    static func epollCreate() throws -> Int32 {
        try retrying("epoll_create1", { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    /// Adds, modifies or deletes `fd` in the interest list; `token` comes back with its events.
    static func epollControl(_ epfd: Int32, _ op: Int32, _ fd: Int32, events: UInt32, token: UInt64) throws {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        _ = try retrying("epoll_ctl", { epoll_ctl(epfd, op, fd, &event) })
    }

    /// - Parameter timeoutMilliseconds: -1 waits forever.
    static func epollWait(_ epfd: Int32, _ events: UnsafeMutableBufferPointer<epoll_event>,
                          timeoutMilliseconds: Int32) throws -> Int {
        Int(try retrying("epoll_wait", {
            epoll_wait(epfd, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        }))
    }

    static func eventCounter() throws -> Int32 {
        try retrying("eventfd", { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) })
    }

    /// Adds 1 to an eventfd counter. Async-signal-safe (a plain write), so signal handlers use it.
    static func signalCounter(_ fd: Int32) {
        var one: UInt64 = 1
        _ = Glibc.write(fd, &one, MemoryLayout<UInt64>.size)
    }

    static func drainCounter(_ fd: Int32) {
        var value: UInt64 = 0
        _ = Glibc.read(fd, &value, MemoryLayout<UInt64>.size)
    }

    // MARK: files

    /// What is at `path`: nil when nothing, true for a socket, false for anything else.
    static func isSocket(_ path: String) throws -> Bool? {
        var info = stat()
        if lstat(path, &info) != 0 {
            let code = Glibc.errno
            if code == ENOENT { return nil }
            throw SystemError(call: "lstat \(path)", errno: code)
        }
        return (info.st_mode & S_IFMT) == S_IFSOCK
    }

    static func unlink(_ path: String) throws {
        _ = try retrying("unlink \(path)", { Glibc.unlink(path) })
    }

    static func chmod(_ path: String, _ mode: mode_t) throws {
        _ = try retrying("chmod \(path)", { Glibc.chmod(path, mode) })
    }

    // MARK: memory

    /// Makes malloc serve blocks of `bytes` or more with their own mapping, given back to the
    /// system by `free` (glibc's default threshold starts at 128 KiB but rises to the size of
    /// any such block freed, after which big buffers come from the heap and stay resident).
    /// Process-wide; fails only for an invalid value.
    static func pinMmapThreshold(_ bytes: Int32) {
        _ = mallopt(M_MMAP_THRESHOLD, bytes)
    }

    // MARK: signals and time

    /// A peer that closes while we write must give EPIPE, not kill the process.
    static func ignoreSIGPIPE() {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }

    /// Installs a C handler. glibc's `signal` has BSD semantics (the handler stays installed,
    /// SA_RESTART), which is what we want; `sigaction` the function is shadowed by the struct.
    /// It fails only for an invalid signal number, a programmer error here.
    /// Installs `handler` and unblocks the signal in the calling thread (and so in the threads
    /// it starts later): a process spawned from a thread that blocks signals (a Dispatch worker,
    /// which is how Foundation's `Process` starts children) inherits that mask, and a SIGTERM
    /// would then stay pending forever (found 2026-11-29 by the crash test).
    static func installHandler(_ signalNumber: Int32, _ handler: @convention(c) (Int32) -> Void) {
        _ = Glibc.signal(signalNumber, handler)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func restoreDefault(_ signalNumber: Int32) {
        _ = Glibc.signal(signalNumber, SIG_DFL)
    }

    /// Runs `body` on a new detached thread (the loops' threads; no Foundation here).
    static func spawnThread(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed with \(result)")
        pthread_detach(thread)
    }

    /// Monotonic time in nanoseconds since an arbitrary start (never jumps with the wall clock).
    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

extension Sys {
    /// A non-blocking client socket connected to `address` (TCP_NODELAY on TCP), for
    /// `LineClient` and the load generators. Waits up to `timeout` for the connect to finish;
    /// closes the socket on any failure.
    static func connectedSocket(to address: ServerAddress, timeout: Duration) throws -> Int32 {
        let socketAddress = try SocketAddress(address)
        let fd = try socket(domain: socketAddress.family, type: Int32(SOCK_STREAM.rawValue))
        do {
            if try !connect(fd, socketAddress) {
                let (seconds, attoseconds) = timeout.components
                let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
                guard try poll(fd, events: Int16(POLLOUT), timeoutMilliseconds: milliseconds) != 0 else {
                    throw ServerError.timedOut("connect to \(address) after \(timeout)")
                }
                let status = try getOption(fd, level: SOL_SOCKET, name: SO_ERROR, label: "SO_ERROR")
                if status != 0 { throw SystemError(call: "connect \(address)", errno: status) }
            }
            if case .tcp = address {
                try setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, label: "TCP_NODELAY")
            }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }
}
