import RunusCore

extension ActivityClassifier {
    /// The shipped classifier (record 0147): the forest committed in `shippedForestText`, read
    /// once at first use. `make segmentation-model` regenerates that file with `ActivityLab`'s
    /// `trainShipped()`, and a test checks that regenerating gives the same text.
    public static let `default`: ActivityClassifier = {
        do {
            return ActivityClassifier(forest: try DecisionForest(text: shippedForestText))
        } catch {
            preconditionFailure("ActivityClassifier+Shipped.swift: \(error); run make segmentation-model")
        }
    }()
}
