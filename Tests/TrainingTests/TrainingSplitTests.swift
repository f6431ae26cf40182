import Testing
import RunusCore
import Training

@Suite("time split")
struct TrainingSplitTests {
    @Test("the leakage check names a runner whose test example predates its training rows")
    func leakageCheck() throws {
        func example(_ user: String, _ t: Double) -> TrainingSplit.Key { .init(user: user, time: t, id: "\(user)-\(t)") }
        #expect(try TrainingSplit.checkLeakage(before: [example("a", 1), example("b", 2)], after: [example("a", 5), example("c", 6)], cutoff: 5) == 1)
        #expect(throws: TrainingError.self) { try TrainingSplit.checkLeakage(before: [example("a", 1)], after: [example("a", 3)], cutoff: 5) }
        #expect(throws: TrainingError.self) { try TrainingSplit.checkLeakage(before: [example("a", 7)], after: [example("a", 8)], cutoff: 5) }
    }
}
