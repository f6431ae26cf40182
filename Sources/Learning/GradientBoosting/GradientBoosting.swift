import RunusCore

/// Histogram gradient-boosted decision trees for binary log loss, in LightGBM's vocabulary and
/// with its defaults (`GradientBoosting.Configuration`). `fit` returns an immutable
/// `GradientBoostingModel`. Same data, configuration and seed give a bit-identical model,
/// whatever the number of cores (see `HistogramBuilder`).
///
/// Per round: gradients g = p − y and hessians h = p(1 − p) of the log loss at the current
/// scores; optionally a new bag of rows and a subset of features; one tree grown leaf-wise on
/// binned data (`TreeGrower`); training scores updated from the leaf ranges; validation loss
/// checked for early stopping. Choices that libraries disagree on: docs/decisions/0310–0313.
public enum GradientBoosting {
    /// Hyperparameters (LightGBM names in comments); validated by `fit`.
    public struct Configuration: Sendable, Equatable {
        /// Boosting rounds (`num_iterations`), >= 1.
        public var numIterations: Int = 100
        /// Shrinkage applied to each tree (`learning_rate`), in (0, 1].
        public var learningRate: Double = 0.1
        /// Maximum leaves per tree (`num_leaves`), 2...65536.
        public var numLeaves: Int = 31
        /// Maximum leaf depth (`max_depth`); <= 0 means unlimited.
        public var maxDepth: Int = -1
        /// Minimum rows per leaf (`min_data_in_leaf`), >= 1.
        public var minDataInLeaf: Int = 20
        /// Minimum Σ hessian per leaf (`min_sum_hessian_in_leaf`), >= 0.
        public var minSumHessianInLeaf: Double = 1e-3
        /// L2 penalty on leaf values (`lambda_l2`), >= 0.
        public var lambdaL2: Double = 0
        /// Minimum loss reduction of a split (`min_gain_to_split`), >= 0.
        public var minGainToSplit: Double = 0
        /// Maximum non-missing bins per feature (`max_bin`), 2...255.
        public var maxBin: Int = 255
        /// Minimum sampled values per bin (`min_data_in_bin`), >= 1.
        public var minDataInBin: Int = 3
        /// Rows sampled to find bin boundaries (`bin_construct_sample_cnt`), >= 1.
        public var binSampleCount: Int = 200_000
        /// Fraction of rows per bag (`bagging_fraction`), in (0, 1]; 1 = no bagging.
        public var baggingFraction: Double = 1
        /// Draw a new bag every k rounds (`bagging_freq`), >= 0; 0 = no bagging.
        public var baggingFrequency: Int = 0
        /// Fraction of features per tree (`feature_fraction`), in (0, 1].
        public var featureFraction: Double = 1
        /// Stop when the validation log loss has not improved for this many rounds
        /// (`early_stopping_round`), >= 0; 0 = off. Needs a validation set.
        public var earlyStoppingRounds: Int = 0
        /// Seed of the generator for binning sample, bags and feature subsets.
        public var seed: UInt64 = 0
        /// Whether histogram building, binning and gradients may use all cores (`num_threads`);
        /// the model is the same either way.
        public var parallel: Bool = true

        public init() {}
    }

    /// How training went.
    public struct FitReport: Sendable, Equatable {
        /// Rounds run, >= 1 (may exceed `trees` with early stopping).
        public let iterations: Int
        /// Trees kept (the best round with early stopping), >= 1.
        public let trees: Int
        /// Training rows, > 0.
        public let rows: Int
        /// Initial score log(p̄ / (1 − p̄)), log-odds, folded into the first tree; 0 when the
        /// caller gave per-row initial scores (LightGBM `init_score`: no boosting from the average).
        public let initialScore: Double
        /// Validation log loss after each round (nats), empty without a validation set.
        public let validationLogLoss: [Double]
        /// Whether early stopping ended training.
        public let stoppedEarly: Bool
    }

    /// Fits the ensemble on `x` (features; NaN = missing) and labels `y` (0 or 1, one per row),
    /// with an optional validation set for early stopping. Throws `LearningError` for bad
    /// labels, sizes or configuration.
    ///
    /// `initScore` (LightGBM `init_score`): one raw score (log-odds, finite) per training row
    /// that boosting starts from instead of the average label's log-odds; the trees then model
    /// only what is left, the first tree carries no bias, and a row's prediction is its initial
    /// score plus the model's raw score (the caller adds it; record 0617). With a validation
    /// set, `validationInitScore` gives its rows' initial scores and is required exactly when
    /// `initScore` is given. Without them the fit is the one without this option, bit for bit.
    public static func fit<T: FeatureTable>(x: T, y: [Double], validation: (x: T, y: [Double])? = nil,
                                            initScore: [Double]? = nil, validationInitScore: [Double]? = nil,
                                            configuration c: Configuration = Configuration()) throws -> GradientBoostingModel {
        try validate(x: x, y: y, validation: validation, configuration: c)
        try validateInitScores(initScore, validationInitScore, rows: x.rowCount, validationRows: validation?.x.rowCount)
        let n = x.rowCount, p = x.featureCount
        let data = BinnedDataset(x, maxBin: c.maxBin, minDataInBin: c.minDataInBin, sampleCount: c.binSampleCount,
                                 seed: c.seed, parallel: c.parallel)
        let splitter = Splitter(mappers: data.mappers, featureOffsets: data.featureOffsets, lambdaL2: c.lambdaL2,
                                minDataInLeaf: c.minDataInLeaf, minSumHessianInLeaf: c.minSumHessianInLeaf,
                                minGainToSplit: c.minGainToSplit)
        let grower = TreeGrower(data: data, splitter: splitter,
                                limits: .init(numLeaves: c.numLeaves, maxDepth: c.maxDepth), parallel: c.parallel)
        let positives = y.reduce(0, +)
        let boostsFromAverage = initScore == nil
        let initialScore = boostsFromAverage ? Logistic.logit(positives / Double(n)) : 0
        var scores = initScore ?? [Double](repeating: initialScore, count: n)
        var pairs = [Double](repeating: 0, count: 2 * n)   // (g, h) of row r at 2r, 2r + 1
        var rng = SeededGenerator(seed: c.seed, stream: 0xBA6)
        var trees: [DecisionTree] = []
        var validationScores = validationInitScore ?? [Double](repeating: 0, count: validation?.x.rowCount ?? 0)
        var history: [Double] = []
        var bestLoss = Double.infinity, bestTrees = 0
        var inBag = [Bool](repeating: true, count: n)
        let bagging = c.baggingFrequency > 0 && c.baggingFraction < 1
        var iterations = 0
        var stoppedEarly = false
        grower.setRows((0..<n).map { Int32($0) })

        for round in 0..<c.numIterations {
            iterations = round + 1
            computeGradients(scores: scores, labels: y, pairs: &pairs, parallel: c.parallel)
            if bagging && round % c.baggingFrequency == 0 {
                var bag: [Int32] = []
                for i in 0..<n {
                    inBag[i] = rng.uniform() < c.baggingFraction
                    if inBag[i] { bag.append(Int32(i)) }
                }
                grower.setRows(bag)
            }
            let featureUsed = sampleFeatures(p, fraction: c.featureFraction, rng: &rng)
            var tree = pairs.withUnsafeBufferPointer { gh in
                grower.grow(pairs: gh.baseAddress!, featureUsed: featureUsed, shrinkage: c.learningRate)
            }
            if tree.leafCount == 1 && round > 0 { break }   // nothing left to split (LightGBM stops too)
            let constantStart = tree.leafCount == 1 && !boostsFromAverage
            if constantStart {
                // LightGBM: a first tree without a split, boosting from initial scores, is the
                // constant 0 (its boost-from-average score) and training stops.
                tree.addBias(-tree.leafValue[0])
            }
            if round == 0 && boostsFromAverage { tree.addBias(initialScore) }
            updateScores(&scores, tree: tree, grower: grower, x: x, inBag: bagging ? inBag : nil,
                         assign: round == 0 && boostsFromAverage)
            trees.append(tree)
            if let validation {
                var loss = 0.0
                for i in 0..<validation.x.rowCount {
                    validationScores[i] += tree.value { validation.x.value(row: i, feature: $0) }
                    loss += Logistic.logLoss(margin: validationScores[i], label: validation.y[i])
                }
                loss /= Double(max(validation.x.rowCount, 1))
                history.append(loss)
                if loss < bestLoss { bestLoss = loss; bestTrees = trees.count }
                if c.earlyStoppingRounds > 0 && trees.count - bestTrees >= c.earlyStoppingRounds {
                    stoppedEarly = true
                    break
                }
            }
            if constantStart { break }
        }
        if c.earlyStoppingRounds > 0 && bestTrees > 0 { trees.removeLast(trees.count - bestTrees) }
        let report = FitReport(iterations: iterations, trees: trees.count, rows: n, initialScore: initialScore,
                               validationLogLoss: history, stoppedEarly: stoppedEarly)
        return GradientBoostingModel(trees: trees, featureCount: p, binMappers: data.mappers, report: report)
    }

    /// Rows per gradient task.
    static let gradientBlock = 65_536

    /// g = σ(s) − y, h = σ(s)(1 − σ(s)), elementwise (so parallel blocks give the same values).
    static func computeGradients(scores: [Double], labels: [Double], pairs: inout [Double], parallel: Bool) {
        let n = scores.count
        scores.withUnsafeBufferPointer { s in
            labels.withUnsafeBufferPointer { y in
                pairs.withUnsafeMutableBufferPointer { gh in
                    let sp = s.baseAddress!, yp = y.baseAddress!, out = gh.baseAddress!
                    let blocks = (n + gradientBlock - 1) / gradientBlock
                    BinnedDataset.forEachChunk(blocks, parallel: parallel) { b in
                        for i in (b * gradientBlock)..<min(n, (b + 1) * gradientBlock) {
                            let prob = Logistic.sigmoid(sp[i])
                            out[2 * i] = prob - yp[i]
                            out[2 * i + 1] = prob * (1 - prob)
                        }
                    }
                }
            }
        }
    }

    /// Adds the tree's leaf values to the training scores from the grower's leaf ranges (no tree
    /// traversal); rows outside the bag go through the tree. `assign` replaces instead (round 0,
    /// whose values already include the initial score).
    static func updateScores<T: FeatureTable>(_ scores: inout [Double], tree: DecisionTree, grower: TreeGrower, x: T,
                                              inBag: [Bool]?, assign: Bool) {
        // Leaves cut into two groups of about equal rows, one per core; each row is written once.
        let ranges = grower.leafRanges, values = tree.leafValue, rows = grower.rows
        var cut = 0, seen = 0
        while cut < ranges.count && 2 * (seen + ranges[cut].count) <= grower.rowCount { seen += ranges[cut].count; cut += 1 }
        scores.withUnsafeMutableBufferPointer { buffer in
            let s = buffer.baseAddress!
            BinnedDataset.forEachChunk(2, parallel: grower.parallel && grower.rowCount >= HistogramBuilder.parallelMinimumRows) { part in
                for leaf in (part == 0 ? 0..<cut : cut..<ranges.count) {
                    let v = values[leaf], range = ranges[leaf]
                    for i in range.begin..<(range.begin + range.count) {
                        let r = Int(rows[i])
                        s[r] = assign ? v : s[r] + v
                    }
                }
            }
        }
        if let inBag {
            for r in 0..<scores.count where !inBag[r] {
                let v = tree.value { x.value(row: r, feature: $0) }
                scores[r] = assign ? v : scores[r] + v
            }
        }
    }

    /// Which features a tree may split on: all, or max(1, round(fraction × p)) drawn without replacement.
    static func sampleFeatures(_ p: Int, fraction: Double, rng: inout SeededGenerator) -> [Bool] {
        if fraction >= 1 { return [Bool](repeating: true, count: p) }
        let k = max(1, Int((fraction * Double(p)).rounded()))
        var order = Array(0..<p)
        var used = [Bool](repeating: false, count: p)
        for i in 0..<k {
            let j = i + Int(rng.next() % UInt64(p - i))
            order.swapAt(i, j)
            used[order[i]] = true
        }
        return used
    }
}
