import Foundation
import Testing
import RunusCore
import ActivityLab
@testable import Tracking

@Suite("Shipped activity classifier")
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
}
