extension GradientBoosting {
    static func validate<T: FeatureTable>(x: T, y: [Double], validation: (x: T, y: [Double])?, configuration c: Configuration) throws {
        func bad(_ name: String, _ value: Any, _ expected: String) -> LearningError {
            .invalidConfiguration(parameter: name, value: "\(value)", expected: expected)
        }
        if c.numIterations < 1 { throw bad("num_iterations", c.numIterations, ">= 1") }
        if !(c.learningRate > 0 && c.learningRate <= 1) { throw bad("learning_rate", c.learningRate, "in (0, 1]") }
        if !(2...65_536).contains(c.numLeaves) { throw bad("num_leaves", c.numLeaves, "in 2...65536") }
        if c.minDataInLeaf < 1 { throw bad("min_data_in_leaf", c.minDataInLeaf, ">= 1") }
        if !(c.minSumHessianInLeaf >= 0 && c.minSumHessianInLeaf.isFinite) { throw bad("min_sum_hessian_in_leaf", c.minSumHessianInLeaf, "finite and >= 0") }
        if !(c.lambdaL2 >= 0 && c.lambdaL2.isFinite) { throw bad("lambda_l2", c.lambdaL2, "finite and >= 0") }
        if !(c.minGainToSplit >= 0 && c.minGainToSplit.isFinite) { throw bad("min_gain_to_split", c.minGainToSplit, "finite and >= 0") }
        if !(2...255).contains(c.maxBin) { throw bad("max_bin", c.maxBin, "in 2...255") }
        if c.minDataInBin < 1 { throw bad("min_data_in_bin", c.minDataInBin, ">= 1") }
        if c.binSampleCount < 1 { throw bad("bin_construct_sample_cnt", c.binSampleCount, ">= 1") }
        if !(c.baggingFraction > 0 && c.baggingFraction <= 1) { throw bad("bagging_fraction", c.baggingFraction, "in (0, 1]") }
        if c.baggingFrequency < 0 { throw bad("bagging_freq", c.baggingFrequency, ">= 0") }
        if !(c.featureFraction > 0 && c.featureFraction <= 1) { throw bad("feature_fraction", c.featureFraction, "in (0, 1]") }
        if c.earlyStoppingRounds < 0 { throw bad("early_stopping_round", c.earlyStoppingRounds, ">= 0") }
        if c.earlyStoppingRounds > 0 && validation == nil { throw bad("early_stopping_round", c.earlyStoppingRounds, "0 when no validation set is given") }
        try checkLabels(y, rows: x.rowCount, what: "training")
        if x.rowCount >= Int(Int32.max) { throw LearningError.dimensionMismatch(what: "training rows (at most 2^31 - 2)", expected: Int(Int32.max) - 1, actual: x.rowCount) }
        if let validation {
            if validation.x.featureCount != x.featureCount {
                throw LearningError.dimensionMismatch(what: "validation feature count", expected: x.featureCount, actual: validation.x.featureCount)
            }
            try checkLabels(validation.y, rows: validation.x.rowCount, what: "validation")
        }
    }

    /// Per-row initial scores: one finite value per row; validation scores exactly when training
    /// scores are given and there is a validation set.
    static func validateInitScores(_ train: [Double]?, _ validation: [Double]?, rows: Int, validationRows: Int?) throws {
        func check(_ scores: [Double], _ count: Int, _ what: String) throws {
            if scores.count != count { throw LearningError.dimensionMismatch(what: "\(what) initial scores (one per row)", expected: count, actual: scores.count) }
            for (i, v) in scores.enumerated() where !v.isFinite {
                throw LearningError.invalidConfiguration(parameter: "\(what) init_score[\(i)]", value: "\(v)", expected: "a finite log-odds")
            }
        }
        if let train { try check(train, rows, "training") }
        switch (train, validation, validationRows) {
        case (nil, nil, _), (_?, nil, nil): return
        case (_, let v?, let count?):
            if train == nil { throw LearningError.invalidConfiguration(parameter: "validation init_score", value: "\(v.count) values", expected: "none without training initial scores") }
            try check(v, count, "validation")
        case (_, _?, nil): throw LearningError.invalidConfiguration(parameter: "validation init_score", value: "given", expected: "a validation set to go with it")
        case (_?, nil, _?): throw LearningError.invalidConfiguration(parameter: "validation init_score", value: "missing", expected: "one per validation row when training initial scores are given")
        }
    }

    private static func checkLabels(_ y: [Double], rows: Int, what: String) throws {
        if y.count != rows { throw LearningError.dimensionMismatch(what: "\(what) labels (one per row)", expected: rows, actual: y.count) }
        if rows == 0 { throw LearningError.emptyData("gradient boosting: no \(what) rows") }
        for (i, v) in y.enumerated() where v != 0 && v != 1 { throw LearningError.invalidLabel(row: i, value: v) }
        if what == "training" {
            let positives = y.reduce(0, +)
            if positives == 0 || positives == Double(rows) {
                throw LearningError.emptyData("gradient boosting: all \(rows) training labels are \(positives == 0 ? 0 : 1); boosting needs both classes")
            }
        }
    }
}
