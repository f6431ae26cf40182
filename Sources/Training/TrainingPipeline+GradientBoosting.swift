import RunusCore
import Features
import Learning
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// The gradient-boosting path of `runus train --model gbdt`: the time split of `TrainingSplit`,
/// a small grid of tree shapes tuned by early stopping on the validation slice, the best one
/// calibrated on the same slice, then scored once on the test slice. docs/decisions/0610-0612.
extension TrainingPipeline {
    /// What the trees boost from (record 0617).
    public enum InitialScore: String, CaseIterable, Sendable {
        /// The margin of an L2 logistic regression fitted on the training slice only.
        case logisticRegression = "lr"
        /// The average label, as before record 0617.
        case averageLabel = "none"
    }

    /// How the raw scores are calibrated on the validation slice (record 0611).
    public enum CalibrationChoice: String, CaseIterable, Sendable {
        /// The lower cross-fitted validation log loss of Platt and isotonic.
        case auto
        case platt, isotonic
        /// σ of the raw score.
        case none
    }

    public struct BoostingOptions: Sendable {
        /// Share of examples (by time) before the test cutoff, 0.5-0.95.
        public var trainFraction = 0.8
        /// Share of all examples (the latest before the test cutoff) in the validation slice, 0.05-0.4.
        public var validationFraction = 0.15
        /// Seed of the binning sample (the grid uses no bagging or feature sampling).
        public var seed = 1
        /// Calibration of the raw scores, fitted on the validation slice.
        public var calibration = CalibrationChoice.auto
        /// The grid (record 0612): num_leaves values (2...1024) and min_data_in_leaf values (>= 1).
        public var gridLeaves = TrainingPipeline.gridLeaves
        public var gridMinData = TrainingPipeline.gridMinData
        /// Shrinkage per tree, in (0, 1].
        public var learningRate = 0.05
        /// What the trees boost from: a logistic regression's margin (record 0617) or the average label.
        public var initModel = InitialScore.logisticRegression
        /// Penalty λ of that logistic regression, > 0 (as `runus train --model lr --l2`).
        public var l2 = 1.0
        /// After choosing the shape and the number of trees on the validation slice, fit the
        /// initial model and that many trees again on training + validation (record 0617); the
        /// calibration stays the one fitted on the held-out validation scores.
        public var refit = true

        public init() {}
    }

    /// One candidate of the grid and how it did on the validation slice.
    public struct GridPoint: Sendable {
        public let numLeaves: Int, minDataInLeaf: Int
        /// Best validation log loss (nats) and the number of trees that reached it.
        public var validationLogLoss = Double.infinity, trees = 0
    }

    public struct BoostingResult {
        public let artifact: GradientBoostingArtifact
        public let split: TrainingSplit
        /// Test metrics of the initial logistic regression alone (nil without one).
        public let initTest: Evaluation?
        public let grid: [GridPoint]
        public let chosen: GradientBoosting.Configuration
        /// Calibrated and raw (σ of the raw score) test metrics.
        public let test: Evaluation, rawTest: Evaluation
        /// Cross-fitted validation log loss of each calibration method considered (nats).
        public let calibrationLosses: [String: Double]
        public let runners: Int
        public let sources: [String]
        public let completedByKind: [MissionKind: (tried: Int, completed: Int)]
        /// Total split gain per feature (schema order), summed over all trees, >= 0.
        public let gainByFeature: [Double]
    }

    /// Tree shapes tried (num_leaves × min_data_in_leaf); shrinkage 0.05, λ₂ = 1, up to 1000 rounds,
    /// early stopping after 50 rounds without improvement (record 0612).
    public static let gridLeaves = [7, 15, 31]
    public static let gridMinData = [20, 100]

    static func baseConfiguration(seed: Int) -> GradientBoosting.Configuration {
        var c = GradientBoosting.Configuration()
        c.numIterations = 1000
        c.learningRate = 0.05
        c.lambdaL2 = 1
        c.earlyStoppingRounds = 50
        c.seed = UInt64(seed)
        return c
    }

    /// Progress lines (each ending in a newline) go to `progress`: the split, each grid point,
    /// the refit and the calibration chosen.
    public static func trainBoosting(examples: [LabelledExample], runners: Int, sources: [String], options: BoostingOptions,
                              progress: (String) -> Void = { _ in }) throws -> BoostingResult {
        let split = try TrainingSplit(examples, trainFraction: options.trainFraction, validationFraction: options.validationFraction)
        let schema = MissionFeatures.schema
        progress("split: \(split.train.count) train, \(split.validation.count) validation, \(split.test.count) test rows\n")
        let fingerprint = Self.fingerprint(examples)
        let fitted = try fitBoosting(train: split.train, validation: split.validation, fingerprint: fingerprint,
                                     options: options, progress: progress)
        let (uncalibrated, calibration, losses, model, configuration, grid) =
            (fitted.uncalibrated, fitted.calibration, fitted.calibrationLosses, fitted.model, fitted.configuration, fitted.grid)
        let tx = Matrix(rowArrays: split.test.map(\.features), cols: schema.count)
        let testScores = uncalibrated.rawScores(x: tx)
        let calibrated = testScores.map { calibration?.probability(score: $0) ?? sigmoid($0) }
        let test = try evaluate(probabilities: calibrated, on: split.test)
        let rawTest = try evaluate(probabilities: testScores.map(sigmoid), on: split.test)
        let servedInit = uncalibrated.initModel?.makeModel()
        let initTest = try servedInit.map { m in try evaluate(probabilities: split.test.map { m.probability(row: $0.features) }, on: split.test) }
        var metrics: [String: Double] = [
            "test_auc": test.auc, "test_log_loss": test.logLoss, "test_brier": test.brier, "test_ece": test.ece,
            "test_rows": Double(test.rows), "test_base_rate": test.baseRate, "test_ece_uncalibrated": rawTest.ece,
            "test_log_loss_uncalibrated": rawTest.logLoss, "validation_rows": Double(split.validation.count),
        ]
        if let mae = test.maeTrue { metrics["test_mae_vs_true_p"] = mae }
        if let initTest {
            metrics["test_auc_init_model"] = initTest.auc
            metrics["test_log_loss_init_model"] = initTest.logLoss
            if let mae = initTest.maeTrue { metrics["test_mae_vs_true_p_init_model"] = mae }
        }
        let artifact = uncalibrated.with(calibration: calibration, metrics: metrics)
        var gain = [Double](repeating: 0, count: schema.count)
        for tree in model.trees { for (f, g) in zip(tree.splitFeature, tree.splitGain) { gain[f] += g } }
        return BoostingResult(artifact: artifact, split: split, initTest: initTest, grid: grid, chosen: configuration, test: test, rawTest: rawTest,
                              calibrationLosses: losses, runners: runners, sources: sources,
                              completedByKind: completedByKind(examples), gainByFeature: gain)
    }

    /// What `fitBoosting` chose and fitted.
    struct FittedBoosting {
        /// The served trees (refitted on train + validation when `options.refit`) without calibration.
        let uncalibrated: GradientBoostingArtifact
        /// The calibration fitted on the validation rows' raw scores, and the cross-fitted losses.
        let calibration: CalibrationMap?
        let calibrationLosses: [String: Double]
        /// The validation-chosen trees (before any refit), their shape and the grid.
        let model: GradientBoostingModel
        let configuration: GradientBoosting.Configuration
        let grid: [GridPoint]
        /// The shared (calibrated) probability of every validation row, scored by trees that never saw it.
        let validationProbabilities: [Double]
    }

    /// The grid, early stopping and calibration chosen on `validation` for trees fitted on
    /// `train` (both non-empty), then (`options.refit`) the initial model and that many trees
    /// refitted on train + validation. Nothing here looks at any other row: the time split passes
    /// its train and validation slices, the validation by person its training people split in two
    /// (record 0630).
    static func fitBoosting(train: [LabelledExample], validation: [LabelledExample], fingerprint: String, options: BoostingOptions,
                            progress: (String) -> Void) throws -> FittedBoosting {
        let schema = MissionFeatures.schema
        let x = Matrix(rowArrays: train.map(\.features), cols: schema.count)
        let vx = Matrix(rowArrays: validation.map(\.features), cols: schema.count)
        let y = train.map(\.label), vy = validation.map(\.label)
        let initModel = try fitInitModel(options, x: x, y: y, fingerprint: fingerprint)
        let initRegression = initModel?.makeModel()
        let initScore = initRegression.map { m in train.map { m.decisionFunction(row: $0.features) } }
        let validationInitScore = initRegression.map { m in validation.map { m.decisionFunction(row: $0.features) } }
        if initModel != nil { progress("boosting from a logistic regression fitted on the training slice (l2 \(options.l2))\n") }
        var grid: [GridPoint] = []
        var best: (model: GradientBoostingModel, configuration: GradientBoosting.Configuration)? = nil
        for leaves in options.gridLeaves {
            for minData in options.gridMinData {
                var c = baseConfiguration(seed: options.seed)
                c.learningRate = options.learningRate
                c.numLeaves = leaves
                c.minDataInLeaf = minData
                let model = try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), initScore: initScore,
                                                     validationInitScore: validationInitScore, configuration: c)
                var point = GridPoint(numLeaves: leaves, minDataInLeaf: minData)
                point.validationLogLoss = model.report?.validationLogLoss.min() ?? .infinity
                point.trees = model.trees.count
                progress("  num_leaves \(leaves), min_data_in_leaf \(minData): \(point.trees) trees, validation log loss \(rounded(point.validationLogLoss, 4))\n")
                if point.validationLogLoss < (grid.map(\.validationLogLoss).min() ?? .infinity) { best = (model, c) }
                grid.append(point)
            }
        }
        guard let (model, configuration) = best else { throw TrainingError.emptyGrid }
        // Every score below goes through the artifact, as the daemon's will (initial margin + trees).
        let heldOut = try GradientBoostingArtifact(
            model: model, modelVersion: "gbdt-\(fingerprint.prefix(8))", featureNames: schema.names,
            featureSchemaHash: schema.hash, fingerprint: fingerprint, seed: UInt64(options.seed),
            configuration: configuration, initModel: initModel)
        let validationScores = heldOut.rawScores(x: vx)
        let (calibration, losses) = try chooseCalibration(options.calibration, scores: validationScores, labels: vy)
        var uncalibrated = heldOut
        if options.refit {
            let before = train + validation
            let ax = Matrix(rowArrays: before.map(\.features), cols: schema.count), ay = before.map(\.label)
            let refitInit = try fitInitModel(options, x: ax, y: ay, fingerprint: fingerprint)
            let refitScore = refitInit.map { a in let m = a.makeModel(); return before.map { m.decisionFunction(row: $0.features) } }
            var c = configuration
            c.numIterations = model.trees.count
            c.earlyStoppingRounds = 0
            let trees = try GradientBoosting.fit(x: ax, y: ay, initScore: refitScore, configuration: c)
            progress("refitted on training + validation (\(before.count) rows): \(trees.trees.count) trees\n")
            uncalibrated = try GradientBoostingArtifact(
                model: trees, modelVersion: "gbdt-\(fingerprint.prefix(8))", featureNames: schema.names,
                featureSchemaHash: schema.hash, fingerprint: fingerprint, seed: UInt64(options.seed),
                configuration: c, initModel: refitInit)
        }
        progress("calibration: \(calibration?.method ?? "none") (cross-fitted validation log loss \(losses.sorted { $0.key < $1.key }.map { "\($0.key) \(rounded($0.value, 4))" }.joined(separator: ", ")))\n")
        return FittedBoosting(uncalibrated: uncalibrated, calibration: calibration, calibrationLosses: losses, model: model,
                              configuration: configuration, grid: grid,
                              validationProbabilities: validationScores.map { GradientBoostingModel.probability(rawScore: $0, calibration: calibration) })
    }

    /// The logistic regression the trees boost from (`options.initModel` lr), fitted on the
    /// rows `x`, as an artifact for the GBDT's; nil for the average label.
    static func fitInitModel(_ options: BoostingOptions, x: Matrix, y: [Double], fingerprint: String) throws -> ModelArtifact? {
        switch options.initModel {
        case .averageLabel: return nil
        case .logisticRegression:
            let configuration = LogisticRegression.Configuration(l2: options.l2)
            let lr = try LogisticRegression.fit(x: x, y: y, configuration: configuration)
            let schema = MissionFeatures.schema
            let report = lr.fitReport
            return try ModelArtifact(
                model: lr, modelVersion: "lr-init-\(fingerprint.prefix(8))", featureNames: schema.names, featureSchemaHash: schema.hash,
                training: .init(fingerprint: fingerprint, rows: y.count, seed: options.seed, l2: options.l2,
                                iterations: report?.iterations ?? 0, converged: report?.converged ?? false))
        }
    }

    /// The calibration for `method` fitted on all validation (score, label) pairs. auto fits
    /// Platt and isotonic on even rows and scores odd rows, then the reverse, and keeps the lower
    /// summed log loss (ties: Platt, the simpler map).
    static func chooseCalibration(_ method: CalibrationChoice, scores: [Double], labels: [Double]) throws -> (CalibrationMap?, [String: Double]) {
        func fit(_ m: String, _ s: [Double], _ y: [Double]) throws -> CalibrationMap {
            m == "platt" ? .platt(try Calibration.Platt.fit(scores: s, labels: y)) : .isotonic(try Calibration.Isotonic.fit(scores: s, labels: y))
        }
        switch method {
        case .none: return (nil, [:])
        case .platt, .isotonic: return (try fit(method.rawValue, scores, labels), [:])
        case .auto:
            let even = scores.indices.filter { $0 % 2 == 0 }, odd = scores.indices.filter { $0 % 2 == 1 }
            guard Set(even.map { labels[$0] }).count == 2, Set(odd.map { labels[$0] }).count == 2 else {
                return (try fit("platt", scores, labels), [:])
            }
            var losses: [String: Double] = [:]
            for m in ["platt", "isotonic"] {
                var total = 0.0
                for (a, b) in [(even, odd), (odd, even)] {
                    let map = try fit(m, a.map { scores[$0] }, a.map { labels[$0] })
                    total += try Metrics.logLoss(labels: b.map { labels[$0] }, probabilities: b.map { map.probability(score: scores[$0]) }) * Double(b.count)
                }
                losses[m] = total / Double(scores.count)
            }
            let chosen = losses["isotonic"]! < losses["platt"]! ? "isotonic" : "platt"
            return (try fit(chosen, scores, labels), losses)
        }
    }

    /// σ(z) = 1 / (1 + e^−z) without overflow, as `GradientBoostingModel.probability` computes it.
    static func sigmoid(_ z: Double) -> Double {
        if z >= 0 { return 1 / (1 + exp(-z)) }
        let e = exp(z)
        return e / (1 + e)
    }
}
