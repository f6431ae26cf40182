import Testing
import RunusCore
import Features
import Missions
import Learning
import Training
#if canImport(Glibc)
import Glibc
#endif

/// The per-kind terms' penalty (record 0666): chosen on runners held out as people.
@Suite("per-kind terms' penalty")
struct OffsetPenaltyTests {
    static let names = MissionFeatures.schema.names

    /// `runners` × `perRunner` distance examples in the full schema: `rel_distance_distance` carries
    /// a slope of 1.5; every per-kind term of v15 is standard normal, and `reach_share_distance`
    /// carries `offsetSlope` (0: the per-kind terms are noise).
    static func examples(runners: Int, perRunner: Int, offsetSlope: Double, seed: UInt64) throws -> [LabelledExample] {
        var rng = SeededGenerator(seed: seed)
        func normal() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let shared = try #require(names.firstIndex(of: "rel_distance_distance"))
        let kind = try #require(names.firstIndex(of: "kind_distance"))
        let reach = try #require(names.firstIndex(of: "reach_share_distance"))
        let offsets = names.indices.filter { MissionFeatures.kindOffsetNames.contains(names[$0]) }
        var out: [LabelledExample] = []
        for r in 0..<runners {
            for i in 0..<perRunner {
                var x = [Double](repeating: 0, count: names.count)
                x[kind] = 1
                x[shared] = normal()
                for j in offsets { x[j] = normal() }
                let margin = 1.5 * x[shared] + offsetSlope * x[reach]
                let label: Double = Double.random(in: 0..<1, using: &rng) < 1 / (1 + exp(-margin)) ? 1 : 0
                out.append(LabelledExample(id: "r\(r)-\(i)", user: "runner-\(r)", time: Double(i) * 3600, kind: .distance,
                                           features: x, label: label, pTrue: nil))
            }
        }
        return out
    }

    @Test("the scale marks exactly schema v15's 36 per-kind terms")
    func scaleMarksTheOffsets() {
        let scale = OffsetPenalty.scale(1000)
        #expect(scale.count == Self.names.count)
        let marked = Set(Self.names.indices.filter { scale[$0] == 1000 }.map { Self.names[$0] })
        let expected = Set(MissionFeatures.kinds.flatMap { ["reach_share_\($0.rawValue)", "past_log_odds_\($0.rawValue)"] })
        #expect(marked == expected && marked.count == 36)
        #expect(Self.names.indices.allSatisfy { scale[$0] == 1000 || scale[$0] == 1 })
    }

    @Test("noise in the per-kind terms is shrunk hard; a per-kind term that carries the signal is not")
    func choosesByValidation() throws {
        let noise = try #require(try OffsetPenalty.choose(Self.examples(runners: 10, perRunner: 60, offsetSlope: 0, seed: 3), l2: 1, seed: 1))
        #expect(noise.factor >= 100, "chose \(noise.factor): \(noise.validationLogLoss)")
        let signal = try #require(try OffsetPenalty.choose(Self.examples(runners: 10, perRunner: 60, offsetSlope: 3, seed: 3), l2: 1, seed: 1))
        #expect(signal.factor <= 10, "chose \(signal.factor): \(signal.validationLogLoss)")
        for choice in [noise, signal] {
            #expect(choice.validationLogLoss.map(\.factor) == OffsetPenalty.grid)
            let best = try #require(choice.validationLogLoss.map(\.logLoss).min())
            #expect(choice.validationLogLoss.first { $0.factor == choice.factor }?.logLoss == best)
        }
    }

    @Test("the validation probabilities are the chosen fit's on the held-out runners, who are never fitted")
    func probabilitiesOfTheChosenFit() throws {
        let all = try Self.examples(runners: 10, perRunner: 60, offsetSlope: 0, seed: 5)
        let split = try PeopleSplit.holdOut(all, share: OffsetPenalty.validationShare, seed: 2)
        let choice = try OffsetPenalty.choose(fitting: split.train, validation: split.heldOut, l2: 1)
        let x = Matrix(rowArrays: split.train.map(\.features), cols: Self.names.count)
        let model = try LogisticRegression.fit(x: x, y: split.train.map(\.label),
                                               configuration: .init(l2: 1, penaltyScale: OffsetPenalty.scale(choice.factor)))
        #expect(choice.validationProbabilities == split.heldOut.map { model.probability(row: $0.features) })
        // The seeded entry point holds out the same runners (seed + 1).
        #expect(try OffsetPenalty.choose(all, l2: 1, seed: 1)?.validationProbabilities == choice.validationProbabilities)
        // One runner: nothing to hold out, no choice.
        #expect(try OffsetPenalty.choose(Array(all.prefix(60)), l2: 1, seed: 1) == nil)
        #expect(throws: TrainingError.emptyGrid) { try OffsetPenalty.choose(fitting: split.train, validation: split.heldOut, l2: 1, grid: []) }
    }
}
