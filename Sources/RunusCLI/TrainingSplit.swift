import RunusCore
import Features

/// The time split every model and baseline is trained and scored on: examples ordered by time,
/// the first `trainFraction` (by count) before the test cutoff; of those, the last
/// `validationFraction` of all examples form the validation slice (early stopping, tuning,
/// calibration), the rest the training slice. Cutoffs are instants, so every example of one
/// instant falls on one side. Logistic regression trains on train + validation, exactly the rows
/// it trained on before validation slices existed (models/default stays reproducible).
/// docs/decisions/0610.
struct TrainingSplit {
    /// Earliest instant of the validation slice and of the test slice, epoch seconds.
    let validationCutoff: EpochSeconds, testCutoff: EpochSeconds
    let train: [LabelledExample], validation: [LabelledExample], test: [LabelledExample]
    /// Runners with examples both before the test cutoff and in the test slice, >= 0.
    let runnersInTrainAndTest: Int

    /// Everything before the test cutoff.
    var beforeTest: [LabelledExample] { train + validation }

    /// `examples` sorted by (time, assignment id), as `TrainingPipeline.examples` returns them.
    init(_ examples: [LabelledExample], trainFraction: Double, validationFraction: Double) throws {
        precondition((0.5...0.95).contains(trainFraction), "trainFraction \(trainFraction) outside 0.5...0.95")
        precondition((0.0...0.4).contains(validationFraction) && validationFraction < trainFraction,
                     "validationFraction \(validationFraction) outside 0...0.4 or not below trainFraction")
        guard examples.count >= 50 else {
            throw CLIError("only \(examples.count) labelled examples (tried missions); at least 50 are needed")
        }
        let testCutoff = examples[Int(Double(examples.count) * trainFraction)].time
        let validationCutoff = examples[Int(Double(examples.count) * (trainFraction - validationFraction))].time
        self.testCutoff = testCutoff
        self.validationCutoff = validationCutoff
        train = examples.filter { $0.time < validationCutoff }
        validation = examples.filter { $0.time >= validationCutoff && $0.time < testCutoff }
        test = examples.filter { $0.time >= testCutoff }
        guard !train.isEmpty, !test.isEmpty else { throw CLIError("the time split left an empty train or test set") }
        if validationFraction > 0 && validation.isEmpty {
            throw CLIError("the time split left an empty validation slice (validation fraction \(validationFraction))")
        }
        func keys(_ xs: [LabelledExample]) -> [Key] { xs.map { Key(user: $0.userID, time: $0.time, id: $0.assignmentID) } }
        runnersInTrainAndTest = try Self.checkLeakage(before: keys(train + validation), after: keys(test), cutoff: testCutoff)
        _ = try Self.checkLeakage(before: keys(train), after: keys(validation), cutoff: validationCutoff)
    }

    /// Per runner: every example of the later slice is at or after the cutoff and after the
    /// runner's last earlier example (so no test row of a runner predates its training rows).
    /// Returns how many runners appear on both sides; throws naming the first violation.
    /// What the leakage check looks at: runner, offer time (epoch seconds) and assignment id.
    struct Key {
        let user: UserID, time: EpochSeconds, id: String
    }

    static func checkLeakage(before: [Key], after: [Key], cutoff: EpochSeconds) throws -> Int {
        var lastBefore: [UserID: EpochSeconds] = [:]
        for e in before {
            guard e.time < cutoff else {
                throw CLIError("leakage check: runner \(e.user) example \(e.id) at \(e.time) is in the earlier slice but not before the cutoff \(cutoff)")
            }
            lastBefore[e.user] = max(lastBefore[e.user] ?? -.infinity, e.time)
        }
        var both: Set<UserID> = []
        for e in after {
            if let last = lastBefore[e.user] {
                guard e.time >= cutoff, e.time > last else {
                    throw CLIError("leakage check: runner \(e.user) example \(e.id) at \(e.time) is older than the runner's training rows (last \(last), cutoff \(cutoff))")
                }
                both.insert(e.user)
            }
        }
        return both.count
    }
}
