/// A track file or blob that could not be read. Each case names where and what was expected.
public enum TrackFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended at byte `offset` while `expected` was still to come.
    case truncated(offset: Int, expected: String)
    /// A header byte names a version this code does not read.
    case unsupportedVersion(offset: Int, version: UInt8, supported: [UInt8])
    /// The bytes at `offset` are not valid: `message` says what was found and expected.
    case corrupt(offset: Int, message: String)

    public var description: String {
        switch self {
        case .truncated(let offset, let expected):
            return "byte \(offset): input ends, expected \(expected)"
        case .unsupportedVersion(let offset, let version, let supported):
            return "byte \(offset): compact track version \(version) is not supported (expected one of \(supported))"
        case .corrupt(let offset, let message):
            return "byte \(offset): \(message)"
        }
    }
}
