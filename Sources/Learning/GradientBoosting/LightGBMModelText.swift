/// LightGBM's text model format (`Booster.save_model`, `model.txt`, version v4) for binary
/// log-loss models with numerical splits, both ways: a model trained by the data team in
/// LightGBM can be served by our daemon, and ours inspected with LightGBM's tools.
///
/// Semantics kept exactly: a node sends a row left when `value <= threshold` after LightGBM's
/// missing-value rule (`DecisionTree.goesLeft`); the initial score lives in the first tree;
/// P = σ(Σ leaf values) (`objective=binary sigmoid:1`). Categorical splits, linear trees,
/// multiclass and other objectives are refused with an error naming the line.
/// See docs/decisions/0312-lightgbm-text-format.md.
public enum LightGBMModelText {
    /// The model as LightGBM v4 text. `featureNames` must have `model.featureCount` names without
    /// spaces; they default to `Column_j` as LightGBM's own.
    public static func write(_ model: GradientBoostingModel, featureNames: [String]? = nil) -> String {
        let names = featureNames ?? (0..<model.featureCount).map { "Column_\($0)" }
        precondition(names.count == model.featureCount, "\(names.count) feature names for \(model.featureCount) features")
        precondition(names.allSatisfy { !$0.contains(" ") && !$0.isEmpty }, "LightGBM feature names cannot be empty or contain spaces")
        let blocks = model.trees.enumerated().map { i, tree in "Tree=\(i)\n" + treeText(tree) + "\n" }
        var s = "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\n"
        s += "max_feature_idx=\(model.featureCount - 1)\nobjective=binary sigmoid:1\n"
        s += "feature_names=\(names.joined(separator: " "))\n"
        s += "feature_infos=\(featureInfos(model).joined(separator: " "))\n"
        s += "tree_sizes=\(blocks.map { String($0.utf8.count) }.joined(separator: " "))\n\n"
        for b in blocks { s += b }
        s += "end of trees\n\nparameters:\n[objective: binary]\n[num_iterations: \(model.trees.count)]\nend of parameters\n\npandas_categorical:null\n"
        return s
    }

    /// A model from LightGBM text. Throws `LearningError.invalidArtifact` naming the line and field.
    public static func read(_ text: String) throws -> GradientBoostingModel {
        var header: [String: String] = [:]
        var trees: [DecisionTree] = []
        var current: [String: String]?
        var currentLine = 0
        var lineNumber = 0
        func finishTree() throws {
            if let fields = current { trees.append(try tree(fields, line: currentLine)) }
            current = nil
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line == "end of trees" { try finishTree(); break }
            if line.hasPrefix("Tree=") {
                try finishTree()
                current = [:]
                currentLine = lineNumber
                continue
            }
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<eq]), value = String(line[line.index(after: eq)...])
            if current != nil { current![key] = value } else { header[key] = value }
        }
        try finishTree()
        guard let objective = header["objective"] else { throw bad("objective", "is missing from the header") }
        let objectiveParts = objective.split(separator: " ")
        if objectiveParts.first != "binary" { throw bad("objective", "\"\(objective)\" is not a binary model") }
        if let sigmoid = objectiveParts.first(where: { $0.hasPrefix("sigmoid:") }), Double(sigmoid.dropFirst(8)) != 1 {
            throw bad("objective", "\"\(objective)\": only sigmoid:1 is supported")
        }
        if let classes = header["num_class"], classes != "1" { throw bad("num_class", "\(classes), expected 1") }
        guard let maxFeature = header["max_feature_idx"].flatMap({ Int($0) }), maxFeature >= -1 else {
            throw bad("max_feature_idx", "missing or not an integer")
        }
        if trees.isEmpty { throw bad("Tree=0", "the model has no trees") }
        let featureCount = maxFeature + 1
        for (t, tree) in trees.enumerated() {
            for f in tree.splitFeature where f < 0 || f >= featureCount {
                throw bad("Tree=\(t).split_feature", "feature \(f) outside 0...\(maxFeature)")
            }
        }
        return GradientBoostingModel(trees: trees, featureCount: featureCount)
    }

    /// The feature names of a LightGBM text model (`feature_names=`), or nil when absent.
    public static func featureNames(_ text: String) -> [String]? {
        for line in text.split(separator: "\n") where line.hasPrefix("feature_names=") {
            return line.dropFirst("feature_names=".count).split(separator: " ").map(String.init)
        }
        return nil
    }

    // MARK: - Writing

    static func treeText(_ t: DecisionTree) -> String {
        func join<S: Sequence>(_ xs: S) -> String { xs.map { "\($0)" }.joined(separator: " ") }
        var s = "num_leaves=\(t.leafCount)\nnum_cat=0\n"
        if t.leafCount > 1 {
            s += "split_feature=\(join(t.splitFeature))\nsplit_gain=\(join(t.splitGain.map(number)))\n"
            s += "threshold=\(join(t.threshold.map(number)))\ndecision_type=\(join(t.decisionType))\n"
            s += "left_child=\(join(t.leftChild))\nright_child=\(join(t.rightChild))\n"
        }
        s += "leaf_value=\(join(t.leafValue.map(number)))\nleaf_weight=\(join(t.leafWeight.map(number)))\n"
        s += "leaf_count=\(join(t.leafDataCount))\n"
        if t.leafCount > 1 {
            s += "internal_value=\(join(t.internalValue.map(number)))\ninternal_weight=\(join(t.internalWeight.map(number)))\n"
            s += "internal_count=\(join(t.internalCount))\n"
        }
        s += "is_linear=0\nshrinkage=\(number(t.shrinkage))\n\n"
        return s
    }

    /// Shortest text that reads back to the same Double (LightGBM parses with strtod semantics).
    static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// `[min:max]` per feature from the training bin boundaries, `none` for features with one bin.
    static func featureInfos(_ model: GradientBoostingModel) -> [String] {
        (0..<model.featureCount).map { j in
            guard j < model.binMappers.count, model.binMappers[j].upperBounds.count > 1 else { return "none" }
            let ub = model.binMappers[j].upperBounds
            return "[\(number(ub[0])):\(number(ub[ub.count - 2]))]"
        }
    }

    // MARK: - Reading

    static func bad(_ field: String, _ problem: String) -> LearningError {
        .invalidArtifact(field: "lightgbm \(field)", problem: problem)
    }

    static func tree(_ f: [String: String], line: Int) throws -> DecisionTree {
        let place = "Tree at line \(line)"
        func value(_ key: String) throws -> String {
            guard let v = f[key] else { throw bad("\(place).\(key)", "is missing") }
            return v
        }
        func ints(_ key: String, _ n: Int) throws -> [Int] {
            let parts = try value(key).split(separator: " ")
            let xs = parts.compactMap { Int($0) }
            if xs.count != n || parts.count != n { throw bad("\(place).\(key)", "expected \(n) integers, got \"\(try value(key).prefix(60))\"") }
            return xs
        }
        func doubles(_ key: String, _ n: Int, optional: Bool = false) throws -> [Double] {
            if optional && f[key] == nil { return [Double](repeating: 0, count: n) }
            let parts = try value(key).split(separator: " ")
            let xs = parts.compactMap { Double($0) }
            if xs.count != n || parts.count != n { throw bad("\(place).\(key)", "expected \(n) numbers, got \"\(try value(key).prefix(60))\"") }
            return xs
        }
        guard let leaves = Int(try value("num_leaves")), leaves >= 1 else { throw bad("\(place).num_leaves", "expected an integer >= 1") }
        if let cat = f["num_cat"], cat != "0" { throw bad("\(place).num_cat", "\(cat): categorical splits are not supported") }
        if let linear = f["is_linear"], linear != "0" { throw bad("\(place).is_linear", "\(linear): linear trees are not supported") }
        let shrinkage = Double(f["shrinkage"] ?? "1") ?? 1
        let leafValue = try doubles("leaf_value", leaves)
        let leafWeight = try doubles("leaf_weight", leaves, optional: true)
        let leafCount = f["leaf_count"] == nil ? [Int](repeating: 0, count: leaves) : try ints("leaf_count", leaves)
        if leaves == 1 {
            return DecisionTree(leafCount: 1, splitFeature: [], threshold: [], decisionType: [], leftChild: [], rightChild: [],
                                splitGain: [], internalValue: [], internalWeight: [], internalCount: [],
                                leafValue: leafValue, leafWeight: leafWeight, leafDataCount: leafCount, shrinkage: shrinkage)
        }
        let m = leaves - 1
        let decision = try ints("decision_type", m)
        for (k, d) in decision.enumerated() where d & 1 != 0 || d < 0 || d > 255 || (d >> 2) & 3 == 3 {
            throw bad("\(place).decision_type[\(k)]", "\(d) is not a numerical split (categorical or unknown missing type)")
        }
        let left = try ints("left_child", m), right = try ints("right_child", m)
        for (k, c) in (left + right).enumerated() where c >= m || c < -leaves {
            throw bad("\(place).children[\(k)]", "child \(c) outside -\(leaves)...\(m - 1)")
        }
        // Every node but the root, and every leaf, must be some node's child exactly once (no cycles).
        var referenced = [Int](repeating: 0, count: m + leaves)
        for c in left + right { referenced[c >= 0 ? c : m + ~c] += 1 }
        if let k = referenced.indices.first(where: { referenced[$0] != ($0 == 0 ? 0 : 1) }) {
            throw bad("\(place).children", "\(k < m ? "node \(k)" : "leaf \(k - m)") is referenced \(referenced[k]) times, expected a tree")
        }
        let thresholds = try doubles("threshold", m), features = try ints("split_feature", m)
        if let k = thresholds.firstIndex(where: \.isNaN) { throw bad("\(place).threshold[\(k)]", "NaN, expected a number") }
        if let k = features.firstIndex(where: { $0 < 0 }) { throw bad("\(place).split_feature[\(k)]", "\(features[k]), expected >= 0") }
        return DecisionTree(leafCount: leaves, splitFeature: features, threshold: thresholds,
                            decisionType: decision.map { UInt8($0) }, leftChild: left, rightChild: right,
                            splitGain: try doubles("split_gain", m, optional: true),
                            internalValue: try doubles("internal_value", m, optional: true),
                            internalWeight: try doubles("internal_weight", m, optional: true),
                            internalCount: f["internal_count"] == nil ? [Int](repeating: 0, count: m) : try ints("internal_count", m),
                            leafValue: leafValue, leafWeight: leafWeight, leafDataCount: leafCount, shrinkage: shrinkage)
    }
}
