import Testing
import Foundation
import RunusCore
@testable import Learning

/// Shared probabilities spread over (0.1, 0.9) and labels drawn from `truth(q)`, seeded.
private func draws(_ n: Int, seed: UInt64, truth: (Double) -> Double) -> (q: [Double], y: [Double]) {
    var state = seed
    func uniform() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    var q: [Double] = [], y: [Double] = []
    for _ in 0..<n {
        let p = 0.1 + 0.8 * uniform()
        q.append(p)
        y.append(uniform() < truth(p) ? 1 : 0)
    }
    return (q, y)
}

private func logit(_ p: Double) -> Double { log(p / (1 - p)) }
private func sigmoid(_ z: Double) -> Double { 1 / (1 + exp(-z)) }
/// Over-confident kind: the truth is the shared probability pulled 1.2 log-odds down.
private func overConfident(_ q: Double) -> Double { sigmoid(logit(q) - 1.2) }

@Suite("per-kind calibration")
struct KindCalibrationTests {
    /// Probabilities this close count as the same map (the maps are smooth; 1e-9 is far below any fitted change).
    static let same = 1e-9

    @Test("a kind with many examples moves toward its truth; one with few stays near the shared map; an absent kind keeps it exactly")
    func shrinksRareKinds() throws {
        let many = draws(4_000, seed: 3, truth: overConfident), few = draws(6, seed: 4, truth: overConfident)
        let kinds = Array(repeating: "hills", count: many.q.count) + Array(repeating: "recovery", count: few.q.count)
        let c = try KindCalibration.fit(shared: many.q + few.q, labels: many.y + few.y, kinds: kinds, shrinkage: 100)
        var hillsError = 0.0, recoveryMove = 0.0
        for q in stride(from: 0.15, through: 0.85, by: 0.05) {
            hillsError = max(hillsError, abs(c.probability(shared: q, kind: "hills") - overConfident(q)))
            recoveryMove = max(recoveryMove, abs(c.probability(shared: q, kind: "recovery") - q))
        }
        // 4,000 rows against λ = 100 pseudo-rows: the map lands within 0.05 of the truth (which is up to 0.28 below q).
        #expect(hillsError < 0.05)
        // 6 rows against λ = 100: the recovery map moves less than 0.04 from the shared map, though its truth is up to 0.28 away.
        #expect(recoveryMove < 0.04)
        #expect(c.maps["recovery"]?.rows == 6)
        #expect(c.maps["pace"] == nil)
        #expect(c.probability(shared: 0.37, kind: "pace") == 0.37)
    }

    @Test("more shrinkage pulls a rare kind's map monotonically toward the shared map")
    func shrinkageOrders() throws {
        let few = draws(30, seed: 9, truth: overConfident)
        let kinds = Array(repeating: "hills", count: few.q.count)
        var last = Double.infinity
        for lambda in [1.0, 10, 100, 1000, 1e6] {
            let c = try KindCalibration.fit(shared: few.q, labels: few.y, kinds: kinds, shrinkage: lambda)
            let move = abs(c.probability(shared: 0.7, kind: "hills") - 0.7)
            #expect(move <= last + Self.same)
            last = move
        }
        #expect(last < 1e-3)
    }

    @Test("the shrinkage is chosen on held-out groups: a finite λ for a miscalibrated kind, ∞ when every kind is calibrated")
    func choosesByHeldOutGroups() throws {
        let bad = draws(3_000, seed: 11, truth: overConfident)
        let groups = bad.q.indices.map { $0 % 4 }
        let chosen = try KindCalibration.choose(shared: bad.q, labels: bad.y, kinds: Array(repeating: "hills", count: bad.q.count), groups: groups)
        #expect(chosen.shrinkage.isFinite)
        #expect(chosen.calibration != nil)
        #expect(chosen.losses.count == KindCalibration.shrinkageGrid.count)
        let shared = chosen.losses.first { !$0.shrinkage.isFinite }?.logLoss ?? 0
        #expect(chosen.losses.allSatisfy { $0.logLoss >= chosen.losses.map(\.logLoss).min()! })
        #expect(chosen.losses.map(\.logLoss).min()! < shared)
        // One group: nothing is held out, so no per-kind map is chosen.
        let single = try KindCalibration.choose(shared: bad.q, labels: bad.y, kinds: Array(repeating: "hills", count: bad.q.count),
                                                groups: Array(repeating: 0, count: bad.q.count))
        #expect(single.calibration == nil && !single.shrinkage.isFinite)
    }

    @Test("bad inputs are refused naming the problem")
    func refusesBadInput() {
        #expect(throws: LearningError.self) { try KindCalibration.fit(shared: [0.5], labels: [1], kinds: ["a"], shrinkage: 0) }
        #expect(throws: LearningError.self) { try KindCalibration.fit(shared: [1.5], labels: [1], kinds: ["a"], shrinkage: 10) }
        #expect(throws: LearningError.self) { try KindCalibration.fit(shared: [0.5], labels: [1], kinds: [], shrinkage: 10) }
    }
}

@Suite("per-kind calibration in artifacts")
struct KindCalibrationArtifactTests {
    static let names = ["kind_distance", "kind_hills", "rel_distance"]

    /// Row i: distance (even i) or hills (odd i) one-hot, then (i mod period) / period.
    static func row(period: Int) -> (Int) -> [Double] {
        { (i: Int) -> [Double] in
            let even: Double = i % 2 == 0 ? 1 : 0
            let r: Double = Double(i % period) / Double(period)
            return [even, 1 - even, r]
        }
    }

    static func artifact() throws -> ModelArtifact {
        let x = Matrix(rowArrays: (0..<200).map(Self.row(period: 7)), cols: 3)
        let y = (0..<200).map { Double(($0 * 7919) % 3 == 0 ? 1 : 0) }
        let model = try LogisticRegression.fit(x: x, y: y, configuration: .init(l2: 1))
        return try ModelArtifact(model: model, modelVersion: "lr-test", featureNames: names, featureSchemaHash: "h",
                                 training: .init(fingerprint: "f", rows: 200, seed: 1, l2: 1, iterations: 1, converged: true))
    }

    static let calibration = KindCalibration(shrinkage: 30, maps: ["hills": .init(slope: 0.8, intercept: -0.6, rows: 40)])

    @Test("an LR artifact with per-kind maps is format 2, round-trips, and changes only its kind's rows")
    func logisticRoundTrip() throws {
        let plain = try Self.artifact()
        let kinded = try plain.with(kindCalibration: Self.calibration)
        #expect(plain.formatVersion == 1 && kinded.formatVersion == 2)
        let bytes = kinded.encode()
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"format_version\": 2"))
        let decoded = try ModelArtifact.decode(bytes)
        #expect(decoded == kinded)
        #expect(decoded.encode() == bytes)
        let model = decoded.makeModel()
        let hills = [0.0, 1, 0.3], distance = [1.0, 0, 0.3]
        #expect(decoded.probability(row: distance, model: model) == model.probability(row: distance))
        let expected = Self.calibration.maps["hills"]!.probability(shared: model.probability(row: hills))
        #expect(abs(decoded.probability(row: hills, model: model) - expected) < KindCalibrationTests.same)
        #expect(abs(expected - model.probability(row: hills)) > 0.05)
        // Without maps, the document is the format-1 bytes earlier builds wrote.
        #expect(try plain.with(kindCalibration: nil).encode() == plain.encode())
        #expect(!String(decoding: plain.encode(), as: UTF8.self).contains("kind_calibration"))
    }

    @Test("readers refuse per-kind maps in a format-1 document and a kind without a feature column")
    func refusesBadDocuments() throws {
        let text = String(decoding: try Self.artifact().with(kindCalibration: Self.calibration).encode(), as: UTF8.self)
        let asVersion1 = text.replacingOccurrences(of: "\"format_version\": 2", with: "\"format_version\": 1")
        #expect(throws: LearningError.invalidArtifact(field: "kind_calibration", problem: "needs format_version 2, the document says 1")) {
            try ModelArtifact.decode(Array(asVersion1.utf8))
        }
        let unknownKind = text.replacingOccurrences(of: "\"hills\": {", with: "\"loop\": {")
        #expect(throws: LearningError.self) { try ModelArtifact.decode(Array(unknownKind.utf8)) }
        do {
            _ = try ModelArtifact.decode(Array(unknownKind.utf8))
        } catch LearningError.invalidArtifact(let field, _) {
            #expect(field == "kind_calibration.kinds.loop")
        }
        let zeroLambda = text.replacingOccurrences(of: "\"shrinkage\": 30", with: "\"shrinkage\": 0")
        #expect(throws: LearningError.self) { try ModelArtifact.decode(Array(zeroLambda.utf8)) }
    }

    /// A small GBDT artifact (5 trees) on `names`, without calibration or maps.
    static func boostingArtifact() throws -> GradientBoostingArtifact {
        let x = Matrix(rowArrays: (0..<300).map(Self.row(period: 11)), cols: 3)
        let y = (0..<300).map { Double(($0 * 31) % 5 < 2 ? 1 : 0) }
        var c = GradientBoosting.Configuration()
        c.numIterations = 5
        c.minDataInLeaf = 10
        let model = try GradientBoosting.fit(x: x, y: y, configuration: c)
        return try GradientBoostingArtifact(model: model, modelVersion: "gbdt-test", featureNames: Self.names, featureSchemaHash: "h",
                                            fingerprint: "f", seed: 1, configuration: c)
    }

    @Test("a GBDT artifact with per-kind maps is format 5 and round-trips; without them it keeps its version")
    func boostingRoundTrip() throws {
        let plain = try Self.boostingArtifact()
        #expect(plain.formatVersion == 2)
        let kinded = try plain.with(kindCalibration: Self.calibration)
        #expect(kinded.formatVersion == 5)
        let decoded = try GradientBoostingArtifact.decode(kinded.encode())
        #expect(decoded.kindCalibration == Self.calibration)
        #expect(decoded.encode() == kinded.encode())
        let rows = [[0.0, 1, 0.5], [1.0, 0, 0.5]]
        let p = decoded.probabilities(rows: rows), q = plain.probabilities(rows: rows)
        #expect(p[1] == q[1])
        #expect(abs(p[0] - Self.calibration.maps["hills"]!.probability(shared: q[0])) < KindCalibrationTests.same)
        #expect(abs(decoded.probability(row: rows[0]) - p[0]) < KindCalibrationTests.same)
        #expect(try GradientBoostingArtifact.decode(plain.encode()).kindCalibration == nil)
        let asVersion4 = String(decoding: kinded.encode(), as: UTF8.self).replacingOccurrences(of: "\"format_version\": 5", with: "\"format_version\": 4")
        #expect(throws: LearningError.invalidArtifact(field: "kind_calibration", problem: "needs format_version 5, the document says 4")) {
            try GradientBoostingArtifact.decode(Array(asVersion4.utf8))
        }
    }

    @Test("the shipped models/default loads, scores and re-encodes byte for byte, at the lowest format version that holds its parts")
    func oldArtifactUnchanged() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        guard let data = FileManager.default.contents(atPath: root + "/models/default/model.json") else {
            Issue.record("models/default/model.json not found under \(root)")
            return
        }
        let bytes = [UInt8](data)
        switch try AnyModelArtifact.decode(bytes) {
        case .logisticRegression(let a):
            #expect(a.formatVersion == ModelArtifact.formatVersion(kindCalibration: a.kindCalibration, schedulePrior: a.schedulePrior))
            #expect(a.encode() == bytes)
            let model = a.makeModel()
            let row = [Double](repeating: 0, count: a.featureNames.count)
            if a.kindCalibration == nil { #expect(a.probability(row: row, model: model) == model.probability(row: row)) }
        case .gradientBoosting(let a):
            #expect(a.kindCalibration == nil)
            #expect(a.encode() == bytes)
        }
    }
}
