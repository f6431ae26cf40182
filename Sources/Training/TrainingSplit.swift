import RunusCore
import Features

/// The time split every model and baseline is trained and scored on: examples ordered by time,
/// the first `trainFraction` (by count) before the test cutoff; of those, the last
/// `validationFraction` of all examples form the validation slice (early stopping, tuning,
/// calibration), the rest the training slice. Cutoffs are instants, so every example of one
/// instant falls on one side. Logistic regression trains on train + validation, exactly the rows
/// it trained on before validation slices existed (models/default stays reproducible).
/// docs/decisions/0610.
public struct TrainingSplit: Sendable {
    /// Fewer labelled examples than this are refused: too few to split and score.
    public static let minimumExamples = 50

    /// Earliest instant of the validation slice and of the test slice, epoch seconds.
    public let validationCutoff: EpochSeconds, testCutoff: EpochSeconds
    public let train: [LabelledExample], validation: [LabelledExample], test: [LabelledExample]
    /// Runners with examples both before the test cutoff and in the test slice, >= 0.
    public let runnersInTrainAndTest: Int

    /// Everything before the test cutoff.
    public var beforeTest: [LabelledExample] { train + validation }

    /// `examples` in training order (`LabelledExample.inTrainingOrder`), as
    /// `TrainingPipeline.examples` returns them.
    public init(_ examples: [LabelledExample], trainFraction: Double, validationFraction: Double) throws {
        precondition((0.5...0.95).contains(trainFraction), "trainFraction \(trainFraction) outside 0.5...0.95")
        precondition((0.0...0.4).contains(validationFraction) && validationFraction < trainFraction,
                     "validationFraction \(validationFraction) outside 0...0.4 or not below trainFraction")
        guard examples.count >= Self.minimumExamples else {
            throw TrainingError.tooFewExamples(count: examples.count, minimum: Self.minimumExamples)
        }
        let testCutoff = Self.cutoff(examples, share: trainFraction)
        let validationCutoff = Self.cutoff(examples, share: trainFraction - validationFraction)
        self.testCutoff = testCutoff
        self.validationCutoff = validationCutoff
        train = examples.filter { $0.time < validationCutoff }
        validation = examples.filter { $0.time >= validationCutoff && $0.time < testCutoff }
        test = examples.filter { $0.time >= testCutoff }
        guard !train.isEmpty, !test.isEmpty else { throw TrainingError.emptyTrainOrTest }
        if validationFraction > 0 && validation.isEmpty {
            throw TrainingError.emptyValidation(fraction: validationFraction)
        }
        func keys(_ xs: [LabelledExample]) -> [Key] { xs.map { Key(user: $0.userID, time: $0.time, id: $0.assignmentID) } }
        runnersInTrainAndTest = try Self.checkLeakage(before: keys(train + validation), after: keys(test), cutoff: testCutoff)
        _ = try Self.checkLeakage(before: keys(train), after: keys(validation), cutoff: validationCutoff)
    }

    /// The instant of the example at `share` (0...1) of `examples` by count (the last one for
    /// share 1): examples before it are the first `share`, give or take the examples of that
    /// instant. `examples` in training order, not empty.
    public static func cutoff(_ examples: [LabelledExample], share: Double) -> EpochSeconds {
        examples[min(Int(Double(examples.count) * share), examples.count - 1)].time
    }

    /// What the leakage check looks at: runner, offer time (epoch seconds) and assignment id.
    public struct Key: Sendable {
        public let user: UserID, time: EpochSeconds, id: String

        public init(user: UserID, time: EpochSeconds, id: String) {
            self.user = user; self.time = time; self.id = id
        }
    }

    /// Per runner: every example of the later slice is at or after the cutoff and after the
    /// runner's last earlier example (so no test row of a runner predates its training rows).
    /// Returns how many runners appear on both sides; throws naming the first violation.
    public static func checkLeakage(before: [Key], after: [Key], cutoff: EpochSeconds) throws -> Int {
        var lastBefore: [UserID: EpochSeconds] = [:]
        for e in before {
            guard e.time < cutoff else {
                throw TrainingError.notBeforeCutoff(user: e.user, example: e.id, time: e.time, cutoff: cutoff)
            }
            lastBefore[e.user] = max(lastBefore[e.user] ?? -.infinity, e.time)
        }
        var both: Set<UserID> = []
        for e in after {
            if let last = lastBefore[e.user] {
                guard e.time >= cutoff, e.time > last else {
                    throw TrainingError.olderThanTraining(user: e.user, example: e.id, time: e.time, last: last, cutoff: cutoff)
                }
                both.insert(e.user)
            }
        }
        return both.count
    }
}
