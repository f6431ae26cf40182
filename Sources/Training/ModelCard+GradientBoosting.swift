import RunusCore
import Features
import Learning
import Missions

/// The MODEL_CARD.md of a gradient-boosted model: what it is, how it was tuned and calibrated,
/// the split and its leakage check, held-out quality, and where not to trust it. Deterministic
/// text (no paths, no wall-clock time).
extension ModelCard {
    public static func markdown(_ r: TrainingPipeline.BoostingResult, options: TrainingPipeline.BoostingOptions) -> String {
        let a = r.artifact, t = r.test, s = r.split, c = r.chosen
        let f = { (x: Double) in TrainingPipeline.rounded(x) }
        func day(_ instant: EpochSeconds) -> String { CivilDate(instant: instant, utcOffset: 0).description }
        let calibration = a.calibration.map { m -> String in
            switch m {
            case .platt(let p): return "Platt scaling σ(\(f(p.slope))·score + \(f(p.intercept)))"
            case .isotonic(let i): return "isotonic regression (\(i.thresholds.count) breakpoints)"
            }
        } ?? "none (σ of the raw score)"
        var lines: [String] = []
        lines.append("# Model card: \(a.modelVersion)")
        lines.append("")
        lines.append("- **Type**: histogram gradient-boosted trees (binary log loss), \(a.model.trees.count) trees, num_leaves \(c.numLeaves), min_data_in_leaf \(c.minDataInLeaf), learning_rate \(c.learningRate), lambda_l2 \(c.lambdaL2), max_bin \(c.maxBin); chosen by validation log loss from \(r.grid.count) shapes, early stopping after \(c.earlyStoppingRounds) rounds without improvement (docs/decisions/0612).")
        if let m = a.initModel {
            let lr = r.initTest.map { " Test AUC of the logistic regression alone \(f($0.auc))" + ($0.maeTrue.map { ", mean abs(p̂ − p_true) \(f($0))" } ?? "") + "." } ?? ""
            lines.append("- **Initial score**: the trees boost from the margin of an L2 logistic regression (λ \(f(m.training.l2)), \(m.training.iterations) Newton steps) fitted on the training slice, \(options.refit ? "then with the chosen number of trees refitted on training + validation (\(m.training.rows) rows)" : "only"), and stored in the artifact; a row's raw score is that margin plus the trees' (docs/decisions/0617).\(lr)")
        }
        lines.append("- **Calibration**: \(calibration), fitted on the validation slice (\(s.validation.count) rows) and stored in the artifact; chosen \(options.calibration == .auto ? "by cross-fitted validation log loss" : "by --calibration \(options.calibration.rawValue)") (docs/decisions/0611).")
        lines.append("- **Predicts**: the probability that a runner who tries a mission completes it (label definition: docs/decisions/0004-mission-labels.md).")
        lines.append("- **Features**: \(a.featureNames.count) (schema hash `\(a.featureSchemaHash)`, listed in docs/features.md).")
        lines.append("- **Data source**: runs from \(r.sources.joined(separator: ", ")).")
        lines.append("- **Split by time** (docs/decisions/0610): train \(s.train.count) rows before \(day(s.validationCutoff)); validation \(s.validation.count) rows from \(day(s.validationCutoff)) to before \(day(s.testCutoff)); test \(s.test.count) rows from \(day(s.testCutoff)); \(r.runners) runners, fingerprint `\(a.fingerprint)`.")
        lines.append("- **Leakage check**: passed. No test example of any runner is older than the test cutoff or than that runner's latest training or validation example (\(s.runnersInTrainAndTest) runners appear on both sides), and likewise between train and validation; features use only runs before each example's instant.")
        lines.append("")
        lines.append("## Held-out quality (test slice)")
        lines.append("")
        lines.append("| metric | calibrated | raw σ(score) |")
        lines.append("|---|---|---|")
        lines.append("| ROC AUC | \(f(t.auc)) | \(f(r.rawTest.auc)) |")
        lines.append("| log loss | \(f(t.logLoss)) | \(f(r.rawTest.logLoss)) |")
        lines.append("| Brier score | \(f(t.brier)) | \(f(r.rawTest.brier)) |")
        lines.append("| expected calibration error (10 bins) | \(f(t.ece)) | \(f(r.rawTest.ece)) |")
        lines.append("| completion rate | \(f(t.baseRate)) | |")
        if let mae = t.maeTrue { lines.append("| mean abs(p̂ − p_true) (simulated truth) | \(f(mae)) | \(f(r.rawTest.maeTrue ?? .nan)) |") }
        lines.append("")
        lines.append("## Tuning (validation slice)")
        lines.append("")
        lines.append("| num_leaves | min_data_in_leaf | trees | validation log loss |")
        lines.append("|---|---|---|---|")
        for g in r.grid { lines.append("| \(g.numLeaves) | \(g.minDataInLeaf) | \(g.trees) | \(TrainingPipeline.rounded(g.validationLogLoss, 4)) |") }
        if !r.calibrationLosses.isEmpty {
            lines.append("")
            lines.append("Calibration, cross-fitted validation log loss: " + r.calibrationLosses.sorted { $0.key < $1.key }
                .map { "\($0.key) \(TrainingPipeline.rounded($0.value, 4))" }.joined(separator: ", ") + ".")
        }
        lines.append("")
        lines.append("## Completion by kind (all examples)")
        lines.append("")
        lines.append("| kind | tried | completed |")
        lines.append("|---|---|---|")
        for (kind, entry) in r.completedByKind.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("| \(kind.rawValue) | \(entry.tried) | \(entry.completed) |")
        }
        lines += ModelCard.truthByKind(t)
        lines.append("")
        lines.append("## Feature importance (total split gain, share)")
        lines.append("")
        lines.append("| feature | gain share |")
        lines.append("|---|---|")
        let total = max(r.gainByFeature.reduce(0, +), .leastNormalMagnitude)
        for (name, g) in zip(a.featureNames, r.gainByFeature).sorted(by: { $0.1 > $1.1 }) where g > 0 {
            lines.append("| `\(name)` | \(f(g / total)) |")
        }
        lines.append("")
        lines.append("## Use and limits")
        lines.append("")
        lines.append("- Intended for ranking and choosing daily missions (`missions.today`); the served probability is the calibrated one.")
        if r.sources.contains("simulated") {
            lines.append("- Trained on simulated runners whose behaviour follows a stated model (docs/decisions/0002-simulated-behaviour-model.md): real runners differ; retrain on real histories before trusting it for them.")
        }
        lines.append("- Labels exist only for missions that were tried; the probability is conditional on trying.")
        lines.append("- Trees do not extrapolate: targets beyond what the training runners did get the edge leaf's probability.")
        lines.append("")
        lines.append("Reproduce: `runus train --db DB --model gbdt --out DIR --train-fraction \(options.trainFraction) --validation-fraction \(options.validationFraction) --calibration \(options.calibration.rawValue) --num-leaves \(options.gridLeaves.map(String.init).joined(separator: ",")) --min-data-in-leaf \(options.gridMinData.map(String.init).joined(separator: ",")) --learning-rate \(options.learningRate) --seed \(options.seed)` on the same database gives identical files.")
        return lines.joined(separator: "\n") + "\n"
    }
}
