import CLibPQ
import Storage

/// A PostgreSQL URI (or keyword/value string), parsed by libpq itself (`PQconninfoParse`), so
/// that what is accepted is exactly what libpq connects to. Keeps the parameters to connect
/// with and a description without the password for every message.
public struct PostgresConnectionInfo: Sendable, CustomStringConvertible {
    /// libpq keyword/value pairs: this store's defaults first, overridden by the URI's own.
    let parameters: [(String, String)]
    /// `database "runus" on db.example:5432 as app`; never the password.
    public let description: String

    /// Parses `uri`; a malformed one throws `StorageError.unavailable` with libpq's reason.
    /// `connectTimeout` (seconds) becomes libpq's own `connect_timeout` unless the URI sets one
    /// (the store also waits at most that long itself).
    public init(uri: String, connectTimeout: Double) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &error) else {
            let reason = error.map { String(cString: $0).split(whereSeparator: \.isNewline).joined(separator: " ") } ?? "out of memory"
            PQfreemem(error)
            throw StorageError.unavailable(database: StoreLocation.postgres(uri: uri).description, operation: "parse the URI",
                                           reason: "not a PostgreSQL URI", detail: reason)
        }
        defer { PQconninfoFree(options) }
        var given: [(String, String)] = []
        var index = 0
        while let keyword = options[index].keyword {
            if let value = options[index].val { given.append((String(cString: keyword), String(cString: value))) }
            index += 1
        }
        let set = Dictionary(given, uniquingKeysWith: { _, last in last })
        var parameters = Self.defaults(connectTimeout: connectTimeout).filter { set[$0.0] == nil }
        parameters += given.filter { $0.0 != "client_encoding" }
        // The store decodes text as UTF-8: the session's encoding is not the URI's to choose.
        parameters.append(("client_encoding", "UTF8"))
        self.parameters = parameters
        description = Self.describe(set)
    }

    /// TCP keepalives and a user timeout so that a peer that vanished is noticed while idle and
    /// while sending (seconds, and milliseconds for tcp_user_timeout; record 0406).
    static func defaults(connectTimeout: Double) -> [(String, String)] {
        let whole = max(2, Int(saturating: connectTimeout.rounded(.up)))  // libpq's minimum is 2 s
        return [
            ("connect_timeout", "\(whole)"), ("application_name", "runus"),
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "15000"),
        ]
    }

    /// Host (or socket folder), port, database and user, as libpq resolves their defaults.
    static func describe(_ set: [String: String]) -> String {
        let host = set["host"] ?? set["hostaddr"] ?? "the default socket"
        let port = set["port"].map { ":" + $0 } ?? ""
        let database = set["dbname"] ?? set["user"] ?? "(the user's)"
        let user = set["user"].map { " as \($0)" } ?? ""
        return "PostgreSQL database \"\(database)\" on \(host)\(port)\(user)"
    }
}
