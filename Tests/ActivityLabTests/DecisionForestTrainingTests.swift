import Testing
import RunusCore
import ActivityLab
@testable import Tracking

/// The forest's training (record 0142): deterministic, able to learn what no single split can,
/// and exactly recovered from its text form.
@Suite("Decision forest training")
struct DecisionForestTrainingTests {
    @Test("the forest separates an XOR pattern that no single split can, deterministically")
    func forestLearnsXor() {
        var rng = SeededGenerator(seed: 7)
        var xs: [[Double]] = [], ys: [Int] = []
        for _ in 0..<400 {
            let a = rng.uniform(-1, 1), b = rng.uniform(-1, 1)
            xs.append([a, b, rng.uniform(0, 1)]); ys.append((a > 0) == (b > 0) ? 1 : 0)
        }
        let forest = DecisionForest(samples: xs, labels: ys, classCount: 2, parameters: .init(trees: 15, maxDepth: 6, minLeaf: 2))
        let again = DecisionForest(samples: xs, labels: ys, classCount: 2, parameters: .init(trees: 15, maxDepth: 6, minLeaf: 2))
        var correct = 0
        for _ in 0..<200 {
            let a = rng.uniform(-1, 1), b = rng.uniform(-1, 1)
            guard abs(a) > 0.1 && abs(b) > 0.1 else { correct += 1; continue }   // margin: the border is fuzzy
            let x = [a, b, 0.5]
            if forest.predict(x).label == ((a > 0) == (b > 0) ? 1 : 0) { correct += 1 }
            #expect(forest.probabilities(x) == again.probabilities(x))
        }
        #expect(correct >= 190)
    }

    @Test("a forest read back from its text predicts exactly as the original")
    func textRoundTrip() throws {
        var rng = SeededGenerator(seed: 11)
        var xs: [[Double]] = [], ys: [Int] = []
        for _ in 0..<300 {
            let a = rng.uniform(-1, 1), b = rng.gaussian() * 1e-7, c = rng.uniform(0, 1e6)
            xs.append([a, b, c]); ys.append(a > 0 ? (c > 5e5 ? 2 : 1) : 0)
        }
        let forest = DecisionForest(samples: xs, labels: ys, classCount: 3, parameters: .init(trees: 7, maxDepth: 5, minLeaf: 2))
        let decoded = try DecisionForest(text: forest.text)
        #expect(decoded.text == forest.text)
        for x in xs.prefix(100) { #expect(decoded.probabilities(x) == forest.probabilities(x)) }
    }
}
