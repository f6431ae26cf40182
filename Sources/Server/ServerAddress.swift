#if canImport(Glibc)
import Glibc
#endif

/// Where a server listens or a client connects, as written on the command line:
/// `127.0.0.1:7070`, `localhost:7070`, `[::1]:7070`, `unix:/run/runus.sock` or `/run/runus.sock`.
public enum ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// A numeric IPv4/IPv6 host (or `localhost`) and a port in 0...65535 (0: the kernel picks one).
    case tcp(host: String, port: UInt16)
    /// A Unix domain socket path, at most 107 bytes.
    case unix(path: String)

    public init(parsing text: String) throws {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw ServerError.badAddress(text, "expected a path after 'unix:'") }
            self = .unix(path: path)
            return
        }
        if text.hasPrefix("/") || text.hasPrefix("./") {
            self = .unix(path: text)
            return
        }
        guard let colon = text.lastIndex(of: ":") else {
            throw ServerError.badAddress(text, "expected host:port, unix:/path or an absolute path")
        }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = UInt16(portText) else {
            throw ServerError.badAddress(text, "port '\(portText)' is not a number in 0...65535")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ServerError.badAddress(text, "expected a host before ':'") }
        self = .tcp(host: host, port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): return "unix:\(path)"
        }
    }

    /// The TCP port, or nil for a Unix socket.
    public var port: UInt16? {
        if case .tcp(_, let port) = self { return port }
        return nil
    }
}

/// A resolved C socket address. Host names are not looked up (no blocking DNS in the loop):
/// only numeric hosts and `localhost` are accepted.
struct SocketAddress: CustomStringConvertible {
    private enum Storage {
        case ipv4(sockaddr_in)
        case ipv6(sockaddr_in6)
        case unix(sockaddr_un)
    }
    private let storage: Storage

    var family: Int32 {
        switch storage {
        case .ipv4: return AF_INET
        case .ipv6: return AF_INET6
        case .unix: return AF_UNIX
        }
    }

    init(_ address: ServerAddress) throws {
        switch address {
        case .tcp(let host, let port):
            let numeric = host == "localhost" ? "127.0.0.1" : host
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, numeric, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = port.bigEndian
                storage = .ipv4(v4)
                return
            }
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET6, numeric, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = port.bigEndian
                storage = .ipv6(v6)
                return
            }
            throw ServerError.badAddress(address.description, "host '\(host)' is not a numeric IPv4/IPv6 address or localhost")
        case .unix(let path):
            var un = sockaddr_un()
            un.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            let capacity = MemoryLayout.size(ofValue: un.sun_path)
            guard bytes.count < capacity, !bytes.contains(0) else {
                throw ServerError.badAddress(address.description,
                                             "socket path is \(bytes.count) bytes, expected at most \(capacity - 1)")
            }
            withUnsafeMutableBytes(of: &un.sun_path) { $0.copyBytes(from: bytes) }
            storage = .unix(un)
        }
    }

    init(storage raw: sockaddr_storage) {
        var raw = raw
        switch Int32(raw.ss_family) {
        case AF_INET:
            storage = .ipv4(withUnsafeBytes(of: &raw) { $0.load(as: sockaddr_in.self) })
        case AF_INET6:
            storage = .ipv6(withUnsafeBytes(of: &raw) { $0.load(as: sockaddr_in6.self) })
        default:
            storage = .unix(withUnsafeBytes(of: &raw) { $0.load(as: sockaddr_un.self) })
        }
    }

    /// The port in host byte order (0 for Unix sockets).
    var port: UInt16 {
        switch storage {
        case .ipv4(let a): return UInt16(bigEndian: a.sin_port)
        case .ipv6(let a): return UInt16(bigEndian: a.sin6_port)
        case .unix: return 0
        }
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch storage {
        case .ipv4(var a):
            return withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6(var a):
            return withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        case .unix(var a):
            return withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
    }

    var description: String {
        switch storage {
        case .ipv4(var a):
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &a.sin_addr, &text, socklen_t(text.count))
            return "\(String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(port)"
        case .ipv6(var a):
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            inet_ntop(AF_INET6, &a.sin6_addr, &text, socklen_t(text.count))
            return "[\(String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))]:\(port)"
        case .unix(var a):
            let path = withUnsafeBytes(of: &a.sun_path) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            return "unix:\(path)"
        }
    }
}
