#if canImport(Glibc)
import Glibc
#endif

/// A listening socket (non-blocking, close-on-exec, SO_REUSEADDR).
final class Listener {
    let fd: Int32
    /// The address actually bound: for TCP port 0 it carries the port the kernel picked.
    let boundAddress: ServerAddress
    /// The socket file to remove on close, for Unix sockets.
    private let unixPath: String?
    private var closed = false

    private init(fd: Int32, boundAddress: ServerAddress, unixPath: String?) {
        self.fd = fd
        self.boundAddress = boundAddress
        self.unixPath = unixPath
    }

    static func open(_ address: ServerAddress, backlog: Int32, unixMode: UInt32) throws -> Listener {
        let socketAddress = try SocketAddress(address)
        if case .unix(let path) = address { try removeStaleSocket(path) }
        let fd = try Sys.socket(domain: socketAddress.family, type: Int32(SOCK_STREAM.rawValue))
        do {
            if case .tcp = address {
                try Sys.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, label: "SO_REUSEADDR")
            }
            try Sys.bind(fd, socketAddress)
            if case .unix(let path) = address { try Sys.chmod(path, mode_t(unixMode)) }
            try Sys.listen(fd, backlog: backlog)
            switch address {
            case .tcp(let host, _):
                let port = try Sys.localAddress(fd).port
                return Listener(fd: fd, boundAddress: .tcp(host: host, port: port), unixPath: nil)
            case .unix(let path):
                return Listener(fd: fd, boundAddress: address, unixPath: path)
            }
        } catch {
            Sys.close(fd)
            if case .unix(let path) = address, (try? Sys.isSocket(path)) == true { try? Sys.unlink(path) }
            throw error
        }
    }

    /// A socket file left by a server that died is removed; a live server's socket, or a file
    /// that is not a socket, is an error (we never delete what is not ours to delete).
    private static func removeStaleSocket(_ path: String) throws {
        switch try Sys.isSocket(path) {
        case nil: return
        case false?: throw ServerError.addressInUse(path, "the path exists and is not a socket")
        case true?:
            let probe = try Sys.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue))
            defer { Sys.close(probe) }
            do {
                // Unix-socket connects complete or fail at once; EAGAIN means a full backlog,
                // so someone is listening.
                _ = try Sys.connect(probe, SocketAddress(.unix(path: path)))
                throw ServerError.addressInUse(path, "another server is listening there")
            } catch let error as SystemError where error.errno == ECONNREFUSED || error.errno == ENOENT {
                try Sys.unlink(path)
            }
        }
    }

    var isUnix: Bool { unixPath != nil }

    /// Closes the socket and removes the Unix socket file. Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        Sys.close(fd)
        if let unixPath, (try? Sys.isSocket(unixPath)) == true { try? Sys.unlink(unixPath) }
    }
}
