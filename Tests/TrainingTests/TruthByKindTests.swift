import Testing
import RunusCore
import Features
import Missions
import Training

/// The held-out mean |p̂ − p_true| of each kind, as model cards print it (issue 25).
@Suite("mean |p̂ − p_true| by kind")
struct TruthByKindTests {
    static let tolerance = 1e-12

    @Test("each kind's mean is over its own rows only; rows without a truth are left out")
    func perKind() throws {
        let rows: [(MissionKind, Double, Double?, Double)] = [  // kind, label, p_true, p̂
            (.pace, 1, 0.9, 0.7), (.pace, 0, 0.2, 0.5), (.hills, 1, 0.6, 0.6), (.hills, 0, nil, 0.1), (.intervals, 0, nil, 0.4),
        ]
        let examples = rows.enumerated().map { i, r in
            LabelledExample(id: "a\(i)", user: "u", time: Double(i), kind: r.0, features: [], label: r.1, pTrue: r.2)
        }
        let e = try TrainingPipeline.evaluate(probabilities: rows.map(\.3), on: examples)
        #expect(e.maeTrueByKind.count == 2)
        #expect(e.maeTrueByKind[.pace]?.rows == 2)
        #expect(abs((e.maeTrueByKind[.pace]?.mae ?? -1) - 0.25) < Self.tolerance)
        #expect(e.maeTrueByKind[.hills]?.rows == 1)
        #expect(abs((e.maeTrueByKind[.hills]?.mae ?? -1) - 0) < Self.tolerance)
        #expect(e.maeTrueByKind[.intervals] == nil)
        #expect(abs((e.maeTrue ?? -1) - 0.5 / 3) < Self.tolerance)
    }
}
