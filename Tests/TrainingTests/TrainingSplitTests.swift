import Testing
import RunusCore
import Features
import Missions
import Training

@Suite("time split")
struct TrainingSplitTests {
    /// `count` examples of runners a and b, one every hour, alternating.
    static func examples(_ count: Int) -> [LabelledExample] {
        (0..<count).map { (i: Int) -> LabelledExample in
            let time: EpochSeconds = 1_800_000_000 + Double(i) * 3600
            let user: UserID = i % 2 == 0 ? "a" : "b"
            return LabelledExample(id: "x\(i)", user: user, time: time, kind: .distance, features: [Double(i)],
                                   label: Double(i % 2), pTrue: nil)
        }
    }

    @Test("the leakage check names a runner whose test example predates its training rows")
    func leakageCheck() throws {
        func example(_ user: String, _ t: Double) -> TrainingSplit.Key { .init(user: user, time: t, id: "\(user)-\(t)") }
        #expect(try TrainingSplit.checkLeakage(before: [example("a", 1), example("b", 2)], after: [example("a", 5), example("c", 6)], cutoff: 5) == 1)
        #expect(throws: TrainingError.self) { try TrainingSplit.checkLeakage(before: [example("a", 1)], after: [example("a", 3)], cutoff: 5) }
        #expect(throws: TrainingError.self) { try TrainingSplit.checkLeakage(before: [example("a", 7)], after: [example("a", 8)], cutoff: 5) }
    }

    @Test("fewer than 50 examples are refused, naming the count; 50 split")
    func minimumExamples() throws {
        #expect(throws: TrainingError.tooFewExamples(count: 49, minimum: 50)) {
            try TrainingSplit(Self.examples(49), trainFraction: 0.8, validationFraction: 0)
        }
        #expect("\(TrainingError.tooFewExamples(count: 49, minimum: 50))"
            == "only 49 labelled examples (tried missions); at least 50 are needed")
        let split = try TrainingSplit(Self.examples(50), trainFraction: 0.8, validationFraction: 0)
        #expect(split.train.count == 40 && split.validation.isEmpty && split.test.count == 10)
        #expect(split.runnersInTrainAndTest == 2)
    }

    @Test("cutoffs are instants: the examples of one instant fall on one side")
    func cutoffsAreInstants() throws {
        // 100 examples at 20 instants (5 each): the 80 % cut falls on the first example of instant 16.
        let examples = (0..<100).map { (i: Int) -> LabelledExample in
            let time = Double(i / 5) * 60
            return LabelledExample(id: "x\(i)", user: "u\(i % 5)", time: time, kind: .pace, features: [0],
                                   label: Double(i % 2), pTrue: nil)
        }
        let split = try TrainingSplit(examples, trainFraction: 0.8, validationFraction: 0.15)
        #expect(split.testCutoff == 16 * 60 && TrainingSplit.cutoff(examples, share: 0.8) == 16 * 60)
        #expect(split.validationCutoff == 13 * 60)
        #expect(split.train.count == 65 && split.validation.count == 15 && split.test.count == 20)
        #expect(split.beforeTest.map(\.assignmentID) == examples.prefix(80).map(\.assignmentID))
        #expect(TrainingSplit.cutoff(examples, share: 1) == examples.last!.time)
    }

    @Test("train refuses fewer than 50 examples with the split's error, before fitting anything")
    func trainNeedsTheMinimum() {
        #expect(throws: TrainingError.tooFewExamples(count: 10, minimum: 50)) {
            try TrainingPipeline.train(examples: Self.examples(10), runners: 2, sources: [], options: .init())
        }
    }

    @Test("training order is time, then assignment id, then runner")
    func trainingOrder() {
        func example(_ id: String, _ user: String, _ time: Double) -> LabelledExample {
            LabelledExample(id: id, user: user, time: time, kind: .distance, features: [], label: 1, pTrue: nil)
        }
        let shuffled = [example("b", "u1", 2), example("a", "u2", 2), example("a", "u1", 2), example("z", "u9", 1)]
        let sorted = shuffled.sorted(by: LabelledExample.inTrainingOrder)
        #expect(sorted.map { "\($0.assignmentID)/\($0.userID)" } == ["z/u9", "a/u1", "a/u2", "b/u1"])
    }
}
