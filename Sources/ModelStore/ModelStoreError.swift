/// A model folder or promotion file that cannot be read or written: the message names the path.
public struct ModelStoreError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
