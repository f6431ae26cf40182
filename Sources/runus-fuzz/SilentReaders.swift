import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Issue 55's export flood during the protocol campaign (record 0555): every `interval`
/// seconds `batch` connections ask `users.export` with tracks for a simulated runner and never
/// read; each is watched until the daemon cuts it off (poll asked for no events: only its
/// hang-up wakes it, not the unread answer) or `patience` passes. The campaign's RSS sampler
/// shows what they cost the daemon.
final class SilentReaders: @unchecked Sendable {
    private let socket: String
    private let runners: Int
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var open: [(fd: Int32, since: Date)] = []
    private(set) var opened = 0
    private(set) var cutOff = 0
    /// Still open after `patience` with the answer unfinished: the daemon kept it too long.
    private(set) var keptTooLong = 0
    /// Still open after `patience`, the whole answer in the socket: nothing left in the daemon.
    private(set) var deliveredWhole = 0

    static let batch = 4
    static let interval = 3.0
    /// The daemon's default write deadline (30 s) and its sweep's second, with room.
    static let patience = 45.0
    static let maximumOpen = 64

    init(socket: String, simulatedRunners: Int) {
        self.socket = socket
        self.runners = max(1, simulatedRunners)
        Thread.detachNewThread { [self] in
            var next = Date()
            var k = 0
            while running.load(ordering: .relaxed) {
                if Date() >= next, open.count + Self.batch <= Self.maximumOpen {
                    for _ in 0..<Self.batch {
                        k += 1
                        if let fd = ask(runner: k % runners + 1) { lock.lock(); open.append((fd, Date())); opened += 1; lock.unlock() }
                    }
                    next = Date().addingTimeInterval(Self.interval)
                }
                watch()
                usleep(100_000)
            }
            lock.lock()
            for c in open { close(c.fd) }
            open = []
            lock.unlock()
            done.signal()
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        done.wait()
    }

    /// Connects and sends the request; nil when the daemon cannot be reached (it may be down).
    private func ask(runner: Int) -> Int32? {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(socket.utf8.prefix(raw.count - 1))) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let line = Array(#"{"op":"users.export","user":"runner-\#(String(format: "%04d", runner))","tracks":true}"#.utf8) + [0x0A]
        guard connected == 0, line.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == line.count else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Whether the bytes waiting on `fd` hold a complete line (peeked, not read).
    static func holdsWholeLine(_ fd: Int32) -> Bool {
        var waiting: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { return false }
        var bytes = [UInt8](repeating: 0, count: Int(waiting))
        let n = recv(fd, &bytes, bytes.count, Int32(MSG_PEEK))
        return n > 0 && bytes[0..<n].contains(0x0A)
    }

    /// Counts the connections the daemon closed, and those kept past `patience`.
    private func watch() {
        lock.lock()
        defer { lock.unlock() }
        open.removeAll { c in
            var entry = pollfd(fd: c.fd, events: 0, revents: 0)
            if poll(&entry, 1, 0) > 0, entry.revents & Int16(POLLHUP | POLLERR) != 0 {
                cutOff += 1
                close(c.fd)
                return true
            }
            if Date().timeIntervalSince(c.since) > Self.patience {
                // A small export fits in the socket's buffers: delivered whole, the daemon holds
                // nothing for it and rightly leaves it to the idle timeout.
                if Self.holdsWholeLine(c.fd) { deliveredWhole += 1 } else { keptTooLong += 1 }
                close(c.fd)
                return true
            }
            return false
        }
    }
}
