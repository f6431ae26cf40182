import RunusCore

/// What a part of a track was travelled by (record 0140). `stationary` comes from a rule, the
/// four moving classes from the trained classifier.
public enum ActivityClass: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case stationary = 0, walk, run, cycle, vehicle

    /// The classes the forest chooses among (stationary is decided by a rule first).
    public static let moving: [ActivityClass] = [.walk, .run, .cycle, .vehicle]

    public var description: String {
        switch self {
        case .stationary: "stationary"
        case .walk: "walk"
        case .run: "run"
        case .cycle: "cycle"
        case .vehicle: "vehicle"
        }
    }

    /// On foot (walk or run): what a run record may count.
    public var isOnFoot: Bool { self == .walk || self == .run }

    public static func < (a: ActivityClass, b: ActivityClass) -> Bool { a.rawValue < b.rawValue }
}

/// One labelled part of a track: the segments ending at points `range` (point indices into the
/// track the classifier was given; the segment ending at point i joins points i−1 and i).
public struct ActivitySegment: Sendable, Equatable {
    /// Indices of the points whose incoming segments carry this label, within the track.
    public let range: ClosedRange<Int>
    public let activity: ActivityClass
    /// Class probability of `activity` from the forest in [0, 1] (1 for rule decisions).
    public let confidence: Double

    public init(range: ClosedRange<Int>, activity: ActivityClass, confidence: Double) {
        self.range = range
        self.activity = activity
        self.confidence = confidence
    }
}
