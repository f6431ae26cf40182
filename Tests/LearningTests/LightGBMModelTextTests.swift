import Testing
@testable import Learning

@Suite("LightGBM text model format")
struct LightGBMModelTextTests {
    @Test("a model written by LightGBM predicts here what LightGBM predicted, NaN rows included")
    func readsLightGBM() throws {
        let model = try LightGBMModelText.read(LightGBMFixture.binaryNaNFeature)
        #expect(model.trees.count == 8 && model.featureCount == 4)
        for (i, row) in LightGBMFixture.rows.enumerated() {
            // Tolerance: LightGBM sums the same leaf values in the same order; 1e-12 allows only
            // last-bit differences of the printed reference.
            #expect(abs(model.rawScore(row: row) - LightGBMFixture.rawScores[i]) <= 1e-12)
            #expect(abs(model.probability(row: row) - LightGBMFixture.probabilities[i]) <= 1e-12)
            #expect(model.rawScore(row: row) == NaiveTrees.rawScore(model.trees, row))
        }
        #expect(LightGBMModelText.featureNames(LightGBMFixture.binaryNaNFeature) == ["Column_0", "Column_1", "Column_2", "Column_3"])
    }

    @Test("our model survives LightGBM text both ways: same trees, bitwise-equal predictions")
    func roundTrip() throws {
        let data = SyntheticTrees.make(rows: 3_000, seed: 21)
        var c = GradientBoosting.Configuration()
        c.numIterations = 12
        c.numLeaves = 9
        let model = try GradientBoosting.fit(x: data.x, y: data.y, configuration: c)
        let names = ["a", "b", "c", "flag", "with_nan", "noise"]
        let text = LightGBMModelText.write(model, featureNames: names)
        let back = try LightGBMModelText.read(text)
        #expect(back.trees == model.trees)
        #expect(back.rawScores(x: data.x) == model.rawScores(x: data.x))
        #expect(LightGBMModelText.write(back, featureNames: names).hasPrefix("tree\nversion=v4\n"))
        #expect(LightGBMModelText.featureNames(text) == names)
        // tree_sizes must be the byte length of each "Tree=i" block, or LightGBM refuses the file.
        let sizes = text.split(separator: "\n").first { $0.hasPrefix("tree_sizes=") }!.dropFirst(11).split(separator: " ").map { Int($0)! }
        let start = text.firstRange(of: "Tree=0\n")!.lowerBound, end = text.firstRange(of: "end of trees")!.lowerBound
        #expect(sizes.reduce(0, +) == text[start..<end].utf8.count)
    }

    @Test("categorical splits, multiclass and missing fields are refused with the place named")
    func refusals() {
        let categorical = LightGBMFixture.binaryNaNFeature.replacing("decision_type=2 8 8 2 2", with: "decision_type=3 8 8 2 2")
        #expect(throws: LearningError.self) { try LightGBMModelText.read(categorical) }
        let multiclass = LightGBMFixture.binaryNaNFeature.replacing("objective=binary sigmoid:1", with: "objective=multiclass num_class:3")
        #expect(throws: LearningError.invalidArtifact(field: "lightgbm objective", problem: "\"multiclass num_class:3\" is not a binary model")) {
            try LightGBMModelText.read(multiclass)
        }
        let noThreshold = LightGBMFixture.binaryNaNFeature.replacing("threshold=", with: "thresh=")
        #expect(throws: LearningError.self) { try LightGBMModelText.read(noThreshold) }
        // Links that are not a tree (node 1 is its own child: a walk would never end), a NaN
        // threshold and a negative feature are refused before any prediction structure is built.
        let cycle = LightGBMFixture.binaryNaNFeature.replacing("left_child=1 3 4 -1 -2", with: "left_child=1 1 4 -1 -2")
        #expect(throws: LearningError.self) { try LightGBMModelText.read(cycle) }
        let nanThreshold = LightGBMFixture.binaryNaNFeature.replacing("threshold=0.39503245378787299 -0.082078379434639234",
                                                                      with: "threshold=nan -0.082078379434639234")
        #expect(throws: LearningError.self) { try LightGBMModelText.read(nanThreshold) }
    }
}
