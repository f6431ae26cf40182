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
/// a stale lock file never blocks a restart.
public final class ServeLock: Sendable {
    public let path: String
    private let descriptor: Int32
    private let released = Mutex(false)

    /// Takes the lock of the database at `databasePath`; throws `StorageError.alreadyServed`
    /// naming the holder when another process has it.
    public init(databasePath: String, now: EpochSeconds) throws {
        path = databasePath + "-serve.lock"
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
        descriptor = fd
        let line = Array("pid \(getpid()), since \(Int(saturating: now.rounded())) (Unix seconds)\n".utf8)
        _ = ftruncate(fd, 0)
        _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Gives the lock up (the daemon stopped).
    public func release() {
        released.withLock { done in
            guard !done else { return }
            done = true
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}
