/// A value to bind to a statement parameter: SQLite's five storage classes.
public enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    func bind(to statement: Statement, at index: Int32) throws {
        switch self {
        case let .integer(v): try statement.bind(v, at: index)
        case let .real(v): try statement.bind(v, at: index)
        case let .text(v): try statement.bind(v, at: index)
        case let .blob(v): try statement.bind(v, at: index)
        case .null: try statement.bindNull(at: index)
        }
    }
}
