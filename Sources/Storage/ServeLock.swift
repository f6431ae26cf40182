#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import RunusCore

/// One daemon per SQLite file (issue 26; docs/decisions/0526-durable-races.md): `runus serve`
/// holds an exclusive `flock` on `<database>-serve.lock` for as long as it runs, and writes its
/// pid and start time there, so that a second daemon on the same file is refused at start with
/// a message naming the holder instead of starting and then logging "database is locked".
/// The kernel drops the lock when the process ends, however it ends (`kill -9` included), so
/// a stale lock file never blocks a restart; a clean stop removes the file (issue 53). Since a
/// file can be removed between another daemon's `open` and its `flock`, a lock is taken only on
/// the file that is at the path once it is held (the inode checked after `flock`).
public final class ServeLock: Sendable {
    public let path: String
    private let descriptor: Int32
    private let released = Mutex(false)

    /// Takes the lock of the database at `databasePath`; throws `StorageError.alreadyServed`
    /// naming the holder when another process has it.
    public init(databasePath: String, now: EpochSeconds) throws {
        let path = databasePath + "-serve.lock"
        self.path = path
        var held: Int32?
        // A file removed by the holder's clean stop between our open and our flock: open again.
        for _ in 0..<8 where held == nil {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw StorageError.lockFailed(path: path, errno: errno) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                var buffer = [UInt8](repeating: 0, count: 256)
                let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
                close(fd)
                guard failure == EWOULDBLOCK else { throw StorageError.lockFailed(path: path, errno: failure) }
                let text = String(decoding: buffer.prefix(max(0, count)).filter { $0 != 0x0A }, as: UTF8.self)
                throw StorageError.alreadyServed(path: databasePath, holder: text.isEmpty ? "holder unknown" : text)
            }
            if Self.isAtPath(fd, path) { held = fd } else { close(fd) }
        }
        guard let fd = held else { throw StorageError.lockFailed(path: path, errno: ENOENT) }
        descriptor = fd
        let line = Array("pid \(getpid()), since \(Int(saturating: now.rounded())) (Unix seconds)\n".utf8)
        _ = ftruncate(fd, 0)
        _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Gives the lock up (the daemon stopped) and removes the file, while still holding it: a
    /// daemon that opened it meanwhile sees it gone and opens the path again.
    public func release() {
        released.withLock { done in
            guard !done else { return }
            done = true
            if Self.isAtPath(descriptor, path) { unlink(path) }
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Whether `fd` is the file now at `path` (same device and inode).
    static func isAtPath(_ fd: Int32, _ path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }
}
