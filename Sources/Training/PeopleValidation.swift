import RunusCore
import Features
import Learning
import Missions

/// Validation on runners held out as whole people (docs/decisions/0630, 0631): leave-runners-out
/// cross-validation over k folds of people (`PeopleSplit`). In every fold, the model is fitted by
/// `fit(_:examples:options:)` on the other folds' runners alone: a group split of those training
/// people into fitting and validation runners makes every choice (the GBDT grid, the number of
/// trees, the shared calibration, the per-kind shrinkage) on validation people, then the model is
/// refitted on all training people. The held-out fold is scored once; its runners are never read
/// before that.
public enum PeopleValidation {
    /// The learner and its options (as `runus train` takes them; split fractions are not used).
    public enum Learner: Sendable {
        case lr(TrainingPipeline.Options)
        case gbdt(TrainingPipeline.BoostingOptions)

        /// "lr" or "gbdt".
        public var name: String {
            switch self {
            case .lr: return "lr"
            case .gbdt: return "gbdt"
            }
        }
    }

    public struct Options: Sendable {
        /// Folds of people of the cross-validation, >= 2.
        public var folds = 5
        /// Seed of the runner hash: folds use it, the inner group splits `seed + 1`.
        public var seed = 1
        /// Share of each training set's runners held out for the choices, in (0, 1).
        public var validationShare = 0.3
        /// Whether per-kind maps are chosen (their shrinkage by held-out people; ∞ = none).
        public var kindCalibration = true
        /// Folds of the training people whose out-of-fold scores fit the per-kind maps and choose
        /// their shrinkage (each scored by a model refitted with the choices already made on the
        /// other folds' people); 0 or 1: the validation runners' scores instead.
        public var innerFolds = 3
        public var shrinkageGrid = KindCalibration.shrinkageGrid

        public init() {}
    }

    /// A model fitted on training people, with the per-kind choice made on its validation people.
    public struct Fitted: Sendable {
        /// The model with its shared calibration (GBDT) and no per-kind maps.
        public let shared: AnyModelArtifact
        /// The shrinkage chosen and the per-kind maps (nil without `kindCalibration`).
        public let kindChoice: KindCalibration.Choice?
        /// Runners fitted on, and held out for the choices.
        public let fittingRunners: Int, validationRunners: Int

        /// The model as served with the per-kind maps (the shared one when none were chosen).
        public func withKindCalibration() throws -> AnyModelArtifact {
            guard let calibration = kindChoice?.calibration else { return shared }
            switch shared {
            case .logisticRegression(let a): return .logisticRegression(try a.with(kindCalibration: calibration))
            case .gradientBoosting(let a): return .gradientBoosting(try a.with(kindCalibration: calibration))
            }
        }
    }

    /// Fits `learner` on `examples` (the training people only): runners split by
    /// `PeopleSplit.holdOut(share: validationShare, seed: seed + 1)`; trees, grid and shared
    /// calibration chosen on the validation runners (`TrainingPipeline.fitBoosting`), the
    /// logistic regression fitted on the fitting runners for its validation scores; the per-kind
    /// shrinkage chosen by leave-one-validation-runner-out over the validation runners' scores;
    /// then the model refitted on all of `examples`.
    public static func fit(_ learner: Learner, examples: [LabelledExample], options: Options) throws -> Fitted {
        let inner = try PeopleSplit.holdOut(examples, share: options.validationShare, seed: options.seed &+ 1)
        let validation = inner.heldOut
        let fingerprint = TrainingPipeline.fingerprint(examples)
        let schema = MissionFeatures.schema
        let shared: AnyModelArtifact, validationProbabilities: [Double]
        switch learner {
        case .lr(let o):
            // The per-kind terms' penalty, chosen on the validation runners (record 0666).
            let factor: Double
            if let given = o.offsetPenalty {
                factor = given
                let x = Matrix(rowArrays: inner.train.map(\.features), cols: schema.count)
                let heldOutModel = try LogisticRegression.fit(x: x, y: inner.train.map(\.label),
                                                              configuration: .init(l2: o.l2, penaltyScale: OffsetPenalty.scale(given)))
                validationProbabilities = validation.map { heldOutModel.probability(row: $0.features) }
            } else {
                let choice = try OffsetPenalty.choose(fitting: inner.train, validation: validation, l2: o.l2)
                factor = choice.factor
                validationProbabilities = choice.validationProbabilities
            }
            let ax = Matrix(rowArrays: examples.map(\.features), cols: schema.count)
            let model = try LogisticRegression.fit(x: ax, y: examples.map(\.label),
                                                   configuration: .init(l2: o.l2, penaltyScale: OffsetPenalty.scale(factor)))
            let report = model.fitReport
            shared = .logisticRegression(try ModelArtifact(
                model: model, modelVersion: "lr-\(fingerprint.prefix(8))", featureNames: schema.names, featureSchemaHash: schema.hash,
                training: .init(fingerprint: fingerprint, rows: examples.count, seed: o.seed, l2: o.l2,
                                iterations: report?.iterations ?? 0, converged: report?.converged ?? false),
                metrics: [OffsetPenalty.metricKey: factor]))
        case .gbdt(let o):
            let fitted = try TrainingPipeline.fitBoosting(train: inner.train, validation: validation, fingerprint: fingerprint,
                                                          options: o, progress: { _ in })
            validationProbabilities = fitted.validationProbabilities
            shared = .gradientBoosting(fitted.uncalibrated.with(calibration: fitted.calibration))
        }
        var choice: KindCalibration.Choice? = nil
        if options.kindCalibration {
            let runners = Set(examples.map(\.userID)).count
            if options.innerFolds >= 2 && runners >= options.innerFolds {
                let folds = try PeopleSplit(examples, folds: options.innerFolds, seed: options.seed &+ 2)
                var oof = [Double](repeating: 0, count: examples.count)
                for k in 0..<folds.folds {
                    let held = examples.indices.filter { folds.foldOf[examples[$0].userID] == k }
                    let rest = examples.indices.filter { folds.foldOf[examples[$0].userID] != k }
                    let p = try refit(like: shared, learner: learner, on: rest.map { examples[$0] }).probabilities(held.map { examples[$0].features })
                    for (j, i) in held.enumerated() { oof[i] = p[j] }
                }
                choice = try KindCalibration.choose(shared: oof, labels: examples.map(\.label), kinds: examples.map(\.kind.rawValue),
                                                    groups: examples.map { folds.foldOf[$0.userID] ?? 0 }, grid: options.shrinkageGrid)
            } else {
                var group: [UserID: Int] = [:]
                for e in validation where group[e.userID] == nil { group[e.userID] = group.count }
                choice = try KindCalibration.choose(shared: validationProbabilities, labels: validation.map(\.label),
                                                    kinds: validation.map(\.kind.rawValue), groups: validation.map { group[$0.userID] ?? 0 },
                                                    grid: options.shrinkageGrid)
            }
        }
        return Fitted(shared: shared, kindChoice: choice, fittingRunners: Set(inner.train.map(\.userID)).count,
                      validationRunners: inner.heldOutRunners.count)
    }

    /// `model` (fitted with its choices made) refitted on `rows` with the same choices: the LR's
    /// λ and per-kind terms' penalty; the GBDT's shape, number of trees, initial-model λ and shared calibration map.
    static func refit(like model: AnyModelArtifact, learner: Learner, on rows: [LabelledExample]) throws -> ScoringArtifact {
        let schema = MissionFeatures.schema
        let x = Matrix(rowArrays: rows.map(\.features), cols: schema.count), y = rows.map(\.label)
        let fingerprint = TrainingPipeline.fingerprint(rows)
        switch (model, learner) {
        case (.gradientBoosting(let a), .gbdt(let o)):
            let initModel = try TrainingPipeline.fitInitModel(o, x: x, y: y, fingerprint: fingerprint)
            let initScore = initModel.map { m in let lr = m.makeModel(); return rows.map { lr.decisionFunction(row: $0.features) } }
            var c = TrainingPipeline.baseConfiguration(seed: o.seed)
            c.learningRate = o.learningRate
            c.numLeaves = Int(saturating: a.configuration["num_leaves"] ?? Double(c.numLeaves))
            c.minDataInLeaf = Int(saturating: a.configuration["min_data_in_leaf"] ?? Double(c.minDataInLeaf))
            c.numIterations = max(a.model.trees.count, 1)
            c.earlyStoppingRounds = 0
            let trees = try GradientBoosting.fit(x: x, y: y, initScore: initScore, configuration: c)
            return try ScoringArtifact(.gradientBoosting(try GradientBoostingArtifact(
                model: trees, modelVersion: a.modelVersion, featureNames: schema.names, featureSchemaHash: schema.hash,
                fingerprint: fingerprint, seed: UInt64(o.seed), configuration: c, calibration: a.calibration, initModel: initModel)))
        default:
            let l2: Double, factor: Double
            if case .lr(let o) = learner { l2 = o.l2 } else { l2 = 1 }
            if case .logisticRegression(let a) = model { factor = OffsetPenalty.factor(of: a) } else { factor = 1 }
            let lr = try LogisticRegression.fit(x: x, y: y, configuration: .init(l2: l2, penaltyScale: OffsetPenalty.scale(factor)))
            return try ScoringArtifact(.logisticRegression(try ModelArtifact(
                model: lr, modelVersion: "lr-inner", featureNames: schema.names, featureSchemaHash: schema.hash,
                training: .init(fingerprint: fingerprint, rows: rows.count, seed: 1, l2: l2, iterations: 0, converged: true))))
        }
    }

    /// Leave-runners-out cross-validation of `learner` over `examples` (training order).
    /// `progress` gets one line per fold.
    public static func crossValidate(_ learner: Learner, examples: [LabelledExample], options: Options,
                                     progress: (String) -> Void = { _ in }) throws -> CrossValidation {
        let split = try PeopleSplit(examples, folds: options.folds, seed: options.seed)
        var shared = [Double](repeating: .nan, count: examples.count), perKind = shared, baseRate = shared
        var shrinkages: [Double] = [], offsetFactors: [Double] = []
        for k in 0..<split.folds {
            let (train, heldOut) = split.fold(k, of: examples)
            let positions = examples.indices.filter { split.foldOf[examples[$0].userID] == k }
            let fitted = try fit(learner, examples: train, options: options)
            let scorerShared = try ScoringArtifact(fitted.shared), scorerKind = try ScoringArtifact(fitted.withKindCalibration())
            let rows = heldOut.map(\.features)
            let p = scorerShared.probabilities(rows), q = scorerKind.probabilities(rows)
            let b = Baselines.baseRate(train: train, test: heldOut)
            for (j, i) in positions.enumerated() { shared[i] = p[j]; perKind[i] = q[j]; baseRate[i] = b[j] }
            let lambda = fitted.kindChoice?.shrinkage ?? .infinity
            shrinkages.append(lambda)
            var offset = ""
            if case .logisticRegression(let a) = fitted.shared {
                offsetFactors.append(OffsetPenalty.factor(of: a))
                offset = "; per-kind terms' penalty ×\(OffsetPenalty.factor(of: a))"
            }
            progress("fold \(k + 1)/\(split.folds): \(split.runners(inFold: k).count) runners held out (\(heldOut.count) rows); "
                     + "fitted on \(fitted.fittingRunners) runners, choices on \(fitted.validationRunners); per-kind shrinkage "
                     + (lambda.isFinite ? "\(lambda)" : "none (shared map)") + offset + "\n")
        }
        return CrossValidation(learner: learner.name, folds: split.folds, seed: options.seed, examples: examples, foldOf: split.foldOf,
                               shared: shared, perKind: perKind, baseRate: baseRate, shrinkages: shrinkages,
                               offsetFactors: offsetFactors)
    }

    /// Probabilities of an artifact as the daemon serves them (the Engine scorers' arithmetic,
    /// without depending on Engine's schema check here).
    struct ScoringArtifact {
        let artifact: AnyModelArtifact
        let lr: LogisticRegressionModel?

        init(_ artifact: AnyModelArtifact) throws {
            self.artifact = artifact
            if case .logisticRegression(let a) = artifact { lr = a.makeModel() } else { lr = nil }
        }

        func probabilities(_ rows: [[Double]]) -> [Double] {
            switch artifact {
            case .logisticRegression(let a):
                guard let lr else { return [] }
                return rows.map { a.probability(row: $0, model: lr) }
            case .gradientBoosting(let a):
                return a.probabilities(rows: rows)
            }
        }
    }
}

/// Out-of-fold predictions of a leave-runners-out cross-validation: every example scored by the
/// model of the fold that held its runner out.
public struct CrossValidation: Sendable {
    public let learner: String
    public let folds: Int, seed: Int
    public let examples: [LabelledExample]
    /// Fold of every runner.
    public let foldOf: [UserID: Int]
    /// Per example: the shared probability, the probability after the per-kind maps, and the
    /// per-kind base rate of the fold's training people ((completed + 1) / (tried + 2), record 0613).
    public let shared: [Double], perKind: [Double], baseRate: [Double]
    /// The per-kind shrinkage chosen in each fold (∞: the shared map won).
    public let shrinkages: [Double]
    /// The LR's per-kind terms' penalty factor chosen in each fold (record 0666); empty for GBDT.
    public var offsetFactors: [Double] = []

    public var runners: Int { foldOf.count }

    /// Overall or one kind's figures.
    public struct Figures: Sendable {
        /// "all" or the kind's wire name.
        public let scope: String
        public let rows: Int, completed: Int
        /// Runners with rows in the scope, and the share of its rows that the runner with the
        /// most holds: a kind whose rows are mostly one runner's is judged on that runner alone.
        public let runners: Int, largestRunnerShare: Double
        /// nil when the scope has one class only.
        public let auc: Double?
        public let ece: Double, logLoss: Double
        /// Log loss of the out-of-fold per-kind base rate on the same rows (nats).
        public let baseRateLogLoss: Double

        public var completionRate: Double { rows > 0 ? Double(completed) / Double(rows) : 0 }
    }

    /// Goals of issue 25 item 2/3 (docs/decisions/0630): overall AUC and ECE, per-kind ECE.
    public static let goalAUC = 0.85, goalECE = 0.03, goalKindECE = 0.05

    /// Overall, then every kind present (schema order of `MissionFeatures.kinds`, any others after
    /// by name), for the shared probabilities or those after the per-kind maps.
    public func figures(kindCalibrated: Bool) throws -> [Figures] {
        let p = kindCalibrated ? perKind : shared
        let present = Set(examples.map(\.kind))
        let ordered = MissionFeatures.kinds.filter(present.contains)
            + present.subtracting(MissionFeatures.kinds).sorted { $0.rawValue < $1.rawValue }
        var scopes: [(String, [Int])] = [("all", Array(examples.indices))]
        for kind in ordered { scopes.append((kind.rawValue, examples.indices.filter { examples[$0].kind == kind })) }
        return try scopes.map { scope, rows in
            let y = rows.map { examples[$0].label }, q = rows.map { p[$0] }
            var perRunner: [UserID: Int] = [:]
            for i in rows { perRunner[examples[i].userID, default: 0] += 1 }
            return Figures(scope: scope, rows: rows.count, completed: Int(saturating: y.reduce(0, +)),
                           runners: perRunner.count,
                           largestRunnerShare: rows.isEmpty ? 0 : Double(perRunner.values.max() ?? 0) / Double(rows.count),
                           auc: Set(y).count == 2 ? try Metrics.rocAUC(labels: y, scores: q) : nil,
                           ece: try Metrics.expectedCalibrationError(labels: y, probabilities: q),
                           logLoss: try Metrics.logLoss(labels: y, probabilities: q),
                           baseRateLogLoss: try Metrics.logLoss(labels: y, probabilities: rows.map { baseRate[$0] }))
        }
    }

    /// Whether `f` meets its goal: overall AUC and ECE for "all", ECE and log loss no worse
    /// than the base rate's for a kind.
    public static func meetsGoal(_ f: Figures) -> Bool {
        if f.scope == "all" { return (f.auc ?? 0) >= goalAUC && f.ece <= goalECE }
        return f.ece <= goalKindECE && f.logLoss <= f.baseRateLogLoss
    }

    /// Metrics for the artifact: `people_auc`, `people_ece`, `people_log_loss`, `people_folds`,
    /// and per kind `people_ece.<kind>` etc. (`people_kc_…` after the per-kind maps).
    public func metrics() throws -> [String: Double] {
        var out: [String: Double] = ["people_folds": Double(folds), "people_runners": Double(runners)]
        for (prefix, calibrated) in [("people", false), ("people_kc", true)] {
            for f in try figures(kindCalibrated: calibrated) {
                let suffix = f.scope == "all" ? "" : ".\(f.scope)"
                if let auc = f.auc { out["\(prefix)_auc\(suffix)"] = auc }
                out["\(prefix)_ece\(suffix)"] = f.ece
                out["\(prefix)_log_loss\(suffix)"] = f.logLoss
                if !calibrated {
                    out["people_rows\(suffix)"] = Double(f.rows)
                    out["people_base_rate_log_loss\(suffix)"] = f.baseRateLogLoss
                }
            }
        }
        return out
    }

    /// The Markdown table of the cards and `runus models compare`: overall and per kind, before
    /// and after the per-kind maps, with the goal of each row.
    public func markdown() throws -> String {
        let before = try figures(kindCalibrated: false), after = try figures(kindCalibrated: true)
        let r = { (x: Double) in TrainingPipeline.rounded(x) }
        let lambdas = shrinkages.map { $0.isFinite ? r($0) : "∞" }.joined(separator: ", ")
        var out = "Held out as people: leave-runners-out cross-validation, \(folds) folds of \(runners) runners (hash seed \(seed)); "
            + "every choice made on the training runners of each fold. Per-kind shrinkage chosen per fold: \(lambdas)."
            + (offsetFactors.isEmpty ? "" : " Per-kind terms' penalty factor chosen per fold (record 0666): "
                 + offsetFactors.map { r($0) }.joined(separator: ", ") + ".")
            + "\n\n"
        out += "| kind | rows | completed | runners | largest runner's rows | AUC | ECE | log loss | base-rate log loss | AUC (per-kind cal.) | ECE (per-kind cal.) | log loss (per-kind cal.) | goal met (before → after) |\n"
        out += "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        for (b, a) in zip(before, after) {
            let goal = { (f: Figures) in Self.meetsGoal(f) ? "yes" : "no" }
            out += "| \(b.scope) | \(b.rows) | \(b.completed) | \(b.runners) | \(r(b.largestRunnerShare)) | \(b.auc.map(r) ?? "–") | \(r(b.ece)) | \(r(b.logLoss)) | \(r(b.baseRateLogLoss)) | "
                + "\(a.auc.map(r) ?? "–") | \(r(a.ece)) | \(r(a.logLoss)) | \(goal(b)) → \(goal(a)) |\n"
        }
        out += "\nGoals: overall AUC ≥ \(Self.goalAUC) and ECE ≤ \(Self.goalECE); every kind ECE ≤ \(Self.goalKindECE) and log loss no worse than its base rate (record 0630). "
            + "\"Largest runner's rows\": the share of the kind's rows held by the runner with the most; near 1, the kind's figures are that runner's alone, "
            + "scored by a model that learnt the kind from the others.\n"
        return out
    }
}

extension PeopleValidation {
    /// The learner that trained `artifact`, as far as the artifact says: LR with its λ; GBDT with
    /// its learning rate and its initial model's λ (or none), the default grid and calibration.
    public static func learner(like artifact: AnyModelArtifact, seed: Int) -> Learner {
        switch artifact {
        case .logisticRegression(let a):
            var o = TrainingPipeline.Options()
            o.l2 = a.training.l2 > 0 ? a.training.l2 : o.l2
            o.seed = seed
            return .lr(o)
        case .gradientBoosting(let a):
            var o = TrainingPipeline.BoostingOptions()
            o.seed = seed
            if let rate = a.configuration["learning_rate"], rate > 0, rate <= 1 { o.learningRate = rate }
            if let initModel = a.initModel { o.l2 = initModel.training.l2 > 0 ? initModel.training.l2 : o.l2 } else { o.initModel = .averageLabel }
            return .gbdt(o)
        }
    }
}
