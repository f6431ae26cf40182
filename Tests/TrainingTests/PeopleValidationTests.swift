import Testing
import RunusCore
import Features
import Missions
import Learning
import Training

@Suite("validation by person")
struct PeopleValidationTests {
    /// `runners` runners with `perRunner` examples each, one feature, labels alternating by row.
    static func examples(runners: Int, perRunner: Int) -> [LabelledExample] {
        var out: [LabelledExample] = []
        for r in 0..<runners {
            for i in 0..<perRunner {
                out.append(LabelledExample(id: "x\(i)", user: "runner-\(r)", time: Double(i) * 3600, kind: .distance,
                                           features: [Double(i)], label: Double((i + r) % 2), pTrue: nil))
            }
        }
        return out
    }

    @Test("the group split never puts one runner on both sides and holds out ⌈share · n⌉ runners")
    func groupSplitSeparatesRunners() throws {
        let all = Self.examples(runners: 11, perRunner: 5)
        for seed in 1...5 {
            for share in [0.1, 0.3, 0.5] {
                let split = try PeopleSplit.holdOut(all, share: share, seed: seed)
                let train = Set(split.train.map(\.userID)), held = Set(split.heldOut.map(\.userID))
                #expect(train.isDisjoint(with: held))
                #expect(train.union(held).count == 11)
                #expect(held == split.heldOutRunners)
                #expect(held.count == Int((share * 11).rounded(.up)))
                #expect(split.train.count + split.heldOut.count == all.count)
            }
        }
        #expect(throws: TrainingError.badHeldOutShare(1)) { try PeopleSplit.holdOut(all, share: 1, seed: 1) }
        #expect(throws: TrainingError.tooFewRunners(count: 1, needed: 2)) {
            try PeopleSplit.holdOut(Self.examples(runners: 1, perRunner: 5), share: 0.5, seed: 1)
        }
    }

    @Test("folds cover every runner exactly once, sizes within one, and the seed reorders them")
    func foldsCoverRunnersOnce() throws {
        let all = Self.examples(runners: 11, perRunner: 3)
        let split = try PeopleSplit(all, folds: 5, seed: 1)
        var seen: [UserID: Int] = [:]
        for k in 0..<5 {
            let (train, held) = split.fold(k, of: all)
            #expect(Set(train.map(\.userID)).isDisjoint(with: Set(held.map(\.userID))))
            for user in Set(held.map(\.userID)) { seen[user, default: 0] += 1 }
            #expect(split.runners(inFold: k).count == 2 || split.runners(inFold: k).count == 3)
        }
        #expect(seen.count == 11 && seen.values.allSatisfy { $0 == 1 })
        #expect(try PeopleSplit(all, folds: 5, seed: 1).ranked == split.ranked)
        #expect(try PeopleSplit(all, folds: 5, seed: 2).ranked != split.ranked)
        #expect(throws: TrainingError.tooFewRunners(count: 11, needed: 12)) { try PeopleSplit(all, folds: 12, seed: 1) }
        #expect(throws: TrainingError.badFolds(1)) { try PeopleSplit(all, folds: 1, seed: 1) }
    }

    @Test("the runner hash reads the id's length first: ids are not joined, and the low bytes spread")
    func hashSpreads() {
        #expect(PeopleSplit.hash("ab", seed: 1) != PeopleSplit.hash("ab", seed: 2))
        // Ids differing in their last byte land in different halves often enough (FNV-1a alone would not).
        let high = (0..<200).filter { PeopleSplit.hash("runner-\($0)", seed: 1) >> 63 == 1 }.count
        #expect((70...130).contains(high))
    }

    /// A small simulated database's examples (history labels need a store; the simulation logs offers).
    static func simulated() throws -> [LabelledExample] {
        let simulated = try SimulatedStore(runners: 10, days: 70, seed: 21)
        defer { simulated.cleanup() }
        return try TrainingPipeline.examples(store: simulated.store).examples
    }

    /// `examples` with every label of `runner` flipped.
    static func flipped(_ examples: [LabelledExample], runner: UserID) -> [LabelledExample] {
        examples.map { e in
            e.userID != runner ? e : LabelledExample(id: e.assignmentID, user: e.userID, time: e.time, kind: e.kind, features: e.features,
                                                     label: 1 - e.label, pTrue: e.pTrue)
        }
    }

    @Test("held-out people are never seen: flipping a runner's labels leaves that runner's out-of-fold predictions bit for bit (LR and GBDT)",
          arguments: [0, 2])
    func choicesNeverSeeHeldOutPeople(innerFolds: Int) throws {
        let examples = try Self.simulated()
        var options = PeopleValidation.Options()
        options.folds = 3
        options.innerFolds = innerFolds
        options.shrinkageGrid = [.infinity, 30]
        var boosting = TrainingPipeline.BoostingOptions()
        boosting.gridLeaves = [3, 7]
        boosting.gridMinData = [10]
        boosting.learningRate = 0.2
        for learner in [PeopleValidation.Learner.lr(.init()), .gbdt(boosting)] {
            let base = try PeopleValidation.crossValidate(learner, examples: examples, options: options)
            let runner = try PeopleSplit(examples, folds: 3, seed: 1).ranked[0]
            let poisoned = try PeopleValidation.crossValidate(learner, examples: Self.flipped(examples, runner: runner), options: options)
            let mine = examples.indices.filter { examples[$0].userID == runner }, others = examples.indices.filter { examples[$0].userID != runner }
            #expect(!mine.isEmpty)
            #expect(mine.allSatisfy { base.shared[$0] == poisoned.shared[$0] && base.perKind[$0] == poisoned.perKind[$0] && base.baseRate[$0] == poisoned.baseRate[$0] })
            // The flip does reach the other folds' models (this test would pass vacuously otherwise).
            #expect(others.contains { base.shared[$0] != poisoned.shared[$0] })
            #expect(base.shared.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 } && base.perKind.allSatisfy { $0.isFinite })
            #expect(base.shrinkages.count == 3)
            let figures = try base.figures(kindCalibrated: false)
            #expect(figures.first?.scope == "all" && figures.first?.rows == examples.count)
            #expect(figures.dropFirst().reduce(0) { $0 + $1.rows } == examples.count)
            // Each scope's runners and the largest one's share of its rows, against a direct count.
            let shareTolerance = 1e-12
            for f in figures {
                let rows = examples.filter { f.scope == "all" || $0.kind.rawValue == f.scope }
                let counts = Dictionary(grouping: rows, by: \.userID).mapValues(\.count)
                #expect(f.runners == counts.count, "\(f.scope)")
                #expect(abs(f.largestRunnerShare - Double(counts.values.max() ?? 0) / Double(rows.count)) < shareTolerance, "\(f.scope)")
            }
            #expect(try base.markdown().contains("| kind | rows | completed | runners | largest runner's rows |"))
            let metrics = try base.metrics()
            #expect(metrics["people_folds"] == 3 && metrics["people_auc"] != nil && metrics["people_kc_ece"] != nil)
        }
    }

    @Test("inside a fit, the per-kind maps are fitted on the validation runners alone, or with inner folds on every training runner's out-of-fold score")
    func innerChoiceUsesValidationPeople() throws {
        let examples = try Self.simulated()
        var options = PeopleValidation.Options()
        options.shrinkageGrid = [10]  // one finite candidate: the maps are always fitted, so their rows can be counted
        options.innerFolds = 0
        let inner = try PeopleSplit.holdOut(examples, share: options.validationShare, seed: options.seed + 1)
        let fitted = try PeopleValidation.fit(.lr(.init()), examples: examples, options: options)
        #expect(fitted.validationRunners == inner.heldOutRunners.count)
        #expect(fitted.fittingRunners + fitted.validationRunners == Set(examples.map(\.userID)).count)
        let validationRows = fitted.kindChoice?.calibration?.maps.values.reduce(0) { $0 + $1.rows }
        #expect(validationRows == inner.heldOut.count)
        #expect(inner.heldOut.count < examples.count / 2)
        // With inner folds, every training runner's out-of-fold score fits the maps.
        options.innerFolds = 3
        let folded = try PeopleValidation.fit(.lr(.init()), examples: examples, options: options)
        #expect(folded.kindChoice?.calibration?.maps.values.reduce(0) { $0 + $1.rows } == examples.count)
    }
}
