import Testing
@testable import Tracking

/// The forest's text form (record 0147): a damaged text is an error that names its line.
@Suite("Decision forest text")
struct DecisionForestTextTests {
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
