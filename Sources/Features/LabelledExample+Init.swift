import RunusCore
import Missions

extension LabelledExample {
    /// A labelled example built outside this module (history labels in Engine, record 0600).
    /// (Labels differ from the synthesised memberwise initialiser, which is internal.)
    /// - Parameters:
    ///   - time: the features' as-of instant, Unix seconds.
    ///   - label: 1 completed, 0 failed.
    ///   - pTrue: the true completion probability in [0, 1] when known (simulation), else nil.
    public init(id: String, user: UserID, time: EpochSeconds, kind: MissionKind, features: [Double],
                label: Double, pTrue: Double?) {
        precondition(label == 0 || label == 1, "LabelledExample: label must be 0 or 1, got \(label)")
        self.assignmentID = id
        self.userID = user
        self.time = time
        self.kind = kind
        self.features = features
        self.label = label
        self.pTrue = pTrue
    }
}
