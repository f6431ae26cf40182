import Foundation
import Testing
import RunusCore
@testable import Tracking

@Suite("Shipped activity classifier and its text form")
struct ShippedClassifierTests {
    /// The committed forest is what `make segmentation-model` makes: retraining on the seeded
    /// synthetic windows gives the same text, bit for bit (record 0147). About 6 s in a debug build.
    @Test("regenerating the shipped forest from its seed gives the committed source, bit for bit")
    func regenerates() throws {
        let forest = ActivityClassifier.trainShipped().forest
        // The string literal drops the text's final line break.
        #expect(forest.text == ActivityClassifier.shippedForestText + "\n", "run make segmentation-model and commit the result")
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Tracking/ActivityClassifier+Shipped.swift").path
        #expect(try String(contentsOfFile: path, encoding: .utf8) == ActivityClassifier.shippedSource(forest))
        #expect(ActivityClassifier.default.forest.text == forest.text)
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

    @Test("a damaged forest text is an error naming the line")
    func damagedText() {
        let text = "forest 2 1 1\ntree 3\n0 0.5 1 2\nleaf 1.0 0.0\nleaf 0.0\n"
        #expect(throws: DecisionForestTextError.self) { try DecisionForest(text: text) }
        do { _ = try DecisionForest(text: text) } catch let error as DecisionForestTextError {
            #expect(error.line == 5)
        } catch { Issue.record("unexpected \(error)") }
        #expect(throws: DecisionForestTextError.self) { try DecisionForest(text: "forest 2 1 1\ntree 2\n0 0.5 1 5\nleaf 1 0\n") }
        #expect((try? DecisionForest(text: "forest 2 1 1\ntree 1\nleaf 0.25 0.75\n"))?.probabilities([3]) == [0.25, 0.75])
    }
}

