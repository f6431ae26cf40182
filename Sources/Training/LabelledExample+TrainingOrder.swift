import Features

extension LabelledExample {
    /// The one order of training examples: by offer time, then assignment id, then runner (ids
    /// are unique per runner only, record 0405). Every time split, fingerprint and artifact is
    /// computed over examples in this order.
    public static func inTrainingOrder(_ a: LabelledExample, _ b: LabelledExample) -> Bool {
        (a.time, a.assignmentID, a.userID) < (b.time, b.assignmentID, b.userID)
    }
}
