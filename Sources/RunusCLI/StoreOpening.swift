import Storage
import PostgresStorage

/// `--db` opened: a SQLite file or a PostgreSQL database (`StoreLocation` tells them apart by
/// the `postgresql://` scheme; docs/deploy.md). The one place commands get their store from.
enum StoreOpening {
    /// Who uses the store: the daemon fails requests within seconds when a server does not
    /// answer; offline commands allow statements of minutes (`PostgresConfiguration`).
    enum Use { case daemon, offline }

    static func open(_ argument: String, for use: Use,
                     log: @escaping @Sendable (String) -> Void = SQLiteStore.logToStandardError) throws -> any DatabaseStore {
        switch StoreLocation(argument) {
        case .sqlite(let path):
            return try SQLiteStore(path: path, log: log)
        case .postgres(let uri):
            return try PostgresStore(uri: uri, configuration: use == .daemon ? .daemon : .offline, log: log)
        }
    }

    /// A short name for reports: the file's name, or the server's database.
    static func shortName(_ argument: String, store: any DatabaseStore) -> String {
        switch StoreLocation(argument) {
        case .sqlite(let path): return path.split(separator: "/").last.map(String.init) ?? path
        case .postgres: return store.location
        }
    }
}
