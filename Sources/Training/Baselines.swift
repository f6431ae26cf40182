import RunusCore
import Features
import Learning
import Missions
import Engine
#if canImport(Glibc)
import Glibc
#endif

/// The two baselines a mission model must beat, fitted on the rows before the test cutoff and
/// scored on the test slice exactly like the models (docs/decisions/0613):
/// - **per-kind base rate**: P = (completed + 1) / (tried + 2) of the kind before the cutoff
///   (all kinds pooled for a kind never seen);
/// - **Riegel rule**: a margin m = log(allowed / needed) from the runner's recent best (below),
///   turned into a probability by a logistic link σ(a_k·m + b_k) fitted per kind (Platt's
///   method) on the same rows.
public enum Baselines {
    /// Days of history the Riegel rule looks back, and its exponent (Riegel 1981: T₂ = T₁·(D₂/D₁)^1.06).
    public static let windowDays = 90.0
    public static let riegelExponent = 1.06
    /// Runs shorter than this (metres) are not used as efforts: too short to extrapolate from.
    public static let minimumEffort: Meters = 1000

    /// The Riegel margin of `spec` for a runner whose runs before the offer are `history`
    /// (any order), in log units: > 0 when the runner's recent best says the target is within
    /// reach. Time-limited kinds (pace, distance in time, intervals) compare the allowed time with
    /// the best Riegel prediction T̂(D) = min over recent runs of T₁·(D/D₁)^1.06 (moving time);
    /// distance-like kinds compare the longest recent run with the distance asked; duration
    /// compares the longest recent moving time. 0 without recent runs or for other kinds.
    public static func riegelMargin(_ spec: MissionSpec, history: [RunRecord], asOf: EpochSeconds) -> Double {
        riegelMargin(spec, recent: recentEfforts(history, asOf: asOf))
    }

    /// The runs the Riegel rule uses at `asOf`: in the window before it, long enough, timed.
    public static func recentEfforts(_ history: [RunRecord], asOf: EpochSeconds) -> [RunRecord] {
        history.filter { $0.startTime < asOf && $0.startTime >= asOf - windowDays * 86_400
            && $0.distance >= minimumEffort && $0.moving > 0 }
    }

    public static func riegelMargin(_ spec: MissionSpec, recent: [RunRecord]) -> Double {
        if recent.isEmpty { return 0 }
        func predicted(_ d: Meters) -> Seconds {
            recent.map { $0.moving * pow(d / $0.distance, riegelExponent) }.min()!
        }
        let longest = recent.map(\.distance).max()!
        switch spec {
        case .pace(let maxPace, let d): return log(maxPace * d / 1000 / predicted(d))
        case .distanceInTime(let d, let maxDuration): return log(maxDuration / predicted(d))
        case .intervals(_, let rep, let maxPace, _): return log(maxPace * rep / 1000 / predicted(rep))
        case .distance(let d), .negativeSplit(let d), .evenPace(let d, _), .earlyBird(_, let d), .nightOwl(_, let d),
             .explorer(_, let d), .loop(_, let d):
            return log(longest / d)
        case .duration(let t): return log(recent.map(\.moving).max()! / t)
        default: return 0
        }
    }

    /// Riegel margins of every tried assignment in the store, by runner and assignment id.
    public static func riegelMargins(store: any TrainingStore) throws -> [RunnerScopedID: Double] {
        var margins: [RunnerScopedID: Double] = [:]
        for user in try store.allUsers() {
            let runs = try store.runs(user: user.id, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
            let assignments = try store.assignments(user: user.id, from: CivilDate(daysSinceEpoch: -1_000_000),
                                                    to: CivilDate(daysSinceEpoch: 1_000_000))
            for a in assignments where a.status == .completed || a.status == .failed {
                guard let spec = try? MissionSpec(json: try JSONParser.parse(a.specJSON)) else { continue }
                margins[RunnerScopedID(user: user.id, id: a.id)] = riegelMargin(spec, history: runs, asOf: a.offeredAt)
            }
        }
        return margins
    }

    /// Riegel margins of history labels (record 0600), by runner and label id; the efforts of one run's
    /// labels are found once.
    public static func riegelMargins(labels: [HistoryLabels.Label], store: any TrainingStore) throws -> [RunnerScopedID: Double] {
        var margins: [RunnerScopedID: Double] = [:]
        let byUser = Dictionary(grouping: labels, by: \.example.userID)
        for (user, userLabels) in byUser {
            let runs = try store.runs(user: user, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
            var efforts: [EpochSeconds: [RunRecord]] = [:]
            for label in userLabels {
                let t = label.example.time
                if efforts[t] == nil { efforts[t] = recentEfforts(runs, asOf: t) }
                margins[RunnerScopedID(user: user, id: label.example.assignmentID)] = riegelMargin(label.spec, recent: efforts[t, default: []])
            }
        }
        return margins
    }

    /// Per-kind base rates fitted on `train`; returns the test probabilities.
    public static func baseRate(train: [LabelledExample], test: [LabelledExample]) -> [Double] {
        var counts: [MissionKind: (Double, Double)] = [:]
        for e in train { counts[e.kind, default: (0, 0)].0 += e.label; counts[e.kind, default: (0, 0)].1 += 1 }
        let all = (train.reduce(0) { $0 + $1.label }, Double(train.count))
        return test.map { e in
            let (done, tried) = counts[e.kind] ?? all
            return (done + 1) / (tried + 2)
        }
    }

    /// The Riegel rule with a per-kind logistic link fitted on `train`; returns the test probabilities.
    public static func riegel(train: [LabelledExample], test: [LabelledExample], margins: [RunnerScopedID: Double]) throws -> [Double] {
        func margin(_ e: LabelledExample) -> Double { margins[RunnerScopedID(user: e.userID, id: e.assignmentID)] ?? 0 }
        let pooled = try Calibration.Platt.fit(scores: train.map(margin), labels: train.map(\.label))
        var links: [MissionKind: Calibration.Platt] = [:]
        for kind in Set(train.map(\.kind)) {
            let rows = train.filter { $0.kind == kind }
            links[kind] = try Calibration.Platt.fit(scores: rows.map(margin), labels: rows.map(\.label))
        }
        return test.map { (links[$0.kind] ?? pooled).probability(score: margin($0)) }
    }
}
