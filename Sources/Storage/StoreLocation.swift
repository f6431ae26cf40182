/// Where a database is, as `--db` names it: a SQLite file path, or a PostgreSQL URI
/// (`postgresql://…` or `postgres://…`, libpq's URI syntax:
/// https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING).
public enum StoreLocation: Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(uri: String)

    /// A URI scheme libpq reads picks PostgreSQL; anything else is a file path.
    public init(_ argument: String) {
        let scheme = argument.prefix(13).lowercased()
        if scheme.hasPrefix("postgresql://") || scheme.hasPrefix("postgres://") {
            self = .postgres(uri: argument)
        } else {
            self = .sqlite(path: argument)
        }
    }

    /// The path, or the URI without its password (the user info keeps the user name only, and
    /// a `password` query parameter reads `***`), for messages and logs.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let uri): return Self.redacted(uri)
        }
    }

    /// `uri` with any password taken out. The authority's user info ends at its last `@`
    /// before the path or query; only the part before its first `:` (the user) is kept.
    static func redacted(_ uri: String) -> String {
        guard let schemeEnd = uri.firstRange(of: "://") else { return uri }
        let afterScheme = uri[schemeEnd.upperBound...]
        let queryStart = afterScheme.firstIndex(of: "?") ?? afterScheme.endIndex
        var authorityAndPath = String(afterScheme[..<queryStart])
        if let at = authorityAndPath.lastIndex(of: "@") {
            let userInfo = authorityAndPath[..<at]
            let user = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            authorityAndPath = String(user) + authorityAndPath[at...]
        }
        var query = ""
        if queryStart < afterScheme.endIndex {
            let parameters = afterScheme[afterScheme.index(after: queryStart)...].split(separator: "&", omittingEmptySubsequences: false)
            query = "?" + parameters.map { parameter in
                parameter.lowercased().hasPrefix("password=") ? "password=***" : String(parameter)
            }.joined(separator: "&")
        }
        return String(uri[..<schemeEnd.upperBound]) + authorityAndPath + query
    }
}
