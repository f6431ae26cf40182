/// A dataset file that cannot be read as its format says: the message names the file, the
/// line or column, and what was expected.
public struct DatasetError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
