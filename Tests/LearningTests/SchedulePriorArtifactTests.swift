import Testing
import Foundation
import RunusCore
@testable import Learning

/// Record 0668: the `schedule_prior` object of model artifacts, for both learners: format
/// versions, exact round trips, documents without one unchanged, and refusals naming the field.
@Suite("schedule prior in artifacts")
struct SchedulePriorArtifactTests {
    static let prior = try! SchedulePrior(usualShare: 0.85, otherShare: 0.08, weightDays: 64)

    @Test("an LR artifact with a prior is format 3 and round-trips byte for byte; weight 0 or nil stores none")
    func logisticRoundTrip() throws {
        let plain = try KindCalibrationArtifactTests.artifact()
        let withPrior = try plain.with(schedulePrior: Self.prior)
        #expect(plain.formatVersion == 1 && withPrior.formatVersion == 3)
        let bytes = withPrior.encode()
        let decoded = try ModelArtifact.decode(bytes)
        #expect(decoded == withPrior && decoded.schedulePrior == Self.prior)
        #expect(decoded.encode() == bytes)
        // Per-kind maps and the prior survive each other's `with`.
        let both = try withPrior.with(kindCalibration: KindCalibrationArtifactTests.calibration)
        #expect(both.schedulePrior == Self.prior && both.kindCalibration == KindCalibrationArtifactTests.calibration && both.formatVersion == 3)
        #expect(try both.with(schedulePrior: nil).formatVersion == 2)
        // No prior, or one that moves nothing: the bytes earlier builds wrote.
        let zero = try SchedulePrior(usualShare: 0.7, otherShare: 0.2, weightDays: 0)
        #expect(try withPrior.with(schedulePrior: zero).encode() == plain.encode())
        #expect(try withPrior.with(schedulePrior: nil).encode() == plain.encode())
        #expect(!String(decoding: plain.encode(), as: UTF8.self).contains("schedule_prior"))
    }

    @Test("a GBDT artifact with a prior is format 6 and round-trips; its other parts are kept")
    func boostingRoundTrip() throws {
        let plain = try KindCalibrationArtifactTests.boostingArtifact()
        let kinded = try plain.with(kindCalibration: KindCalibrationArtifactTests.calibration)
        let withPrior = kinded.with(schedulePrior: Self.prior)
        #expect(withPrior.formatVersion == 6)
        let decoded = try GradientBoostingArtifact.decode(withPrior.encode())
        #expect(decoded.schedulePrior == Self.prior && decoded.kindCalibration == KindCalibrationArtifactTests.calibration)
        #expect(decoded.encode() == withPrior.encode())
        // Recalibrating keeps the prior.
        #expect(decoded.with(calibration: nil).schedulePrior == Self.prior)
        #expect(withPrior.with(schedulePrior: nil).encode() == kinded.encode())
        #expect(AnyModelArtifact.gradientBoosting(decoded).info["schedule_prior"] == Self.prior.jsonValue)
        #expect(AnyModelArtifact.gradientBoosting(plain).info["schedule_prior"] == nil)
    }

    /// The LR document with a prior, with `replace` applied to its text.
    static func document(_ replace: (String) -> String) throws -> [UInt8] {
        let text = String(decoding: try KindCalibrationArtifactTests.artifact().with(schedulePrior: prior).encode(), as: UTF8.self)
        return Array(replace(text).utf8)
    }

    @Test("readers refuse a prior in an older format, and missing, non-numeric or out-of-range fields, naming the field",
          arguments: [
            ("\"format_version\": 3", "\"format_version\": 2", "schedule_prior"),
            ("\"weight_days\": 64", "\"weight_days\": -1", "schedule_prior.weight_days"),
            ("\"weight_days\": 64", "\"weight_days\": 1e9", "schedule_prior.weight_days"),
            ("\"usual_share\": 0.85", "\"usual_share\": 1.5", "schedule_prior.usual_share"),
            ("\"other_share\": 0.08", "\"other_share\": \"0.08\"", "schedule_prior.other_share"),
            ("\"other_share\": 0.08,", "", "schedule_prior.other_share"),
            ("\"usual_share\": 0.85", "\"usual_share\": -0.0001", "schedule_prior.usual_share"),
          ])
    func refusals(from: String, to: String, field: String) throws {
        let bytes = try Self.document { $0.replacingOccurrences(of: from, with: to) }
        #expect(bytes != (try Self.document { $0 }), "the replacement \(from) → \(to) must change the document")
        do {
            _ = try ModelArtifact.decode(bytes)
            Issue.record("accepted \(to)")
        } catch LearningError.invalidArtifact(let got, let problem) {
            #expect(got == field, "\(problem)")
        }
    }

    @Test("seeded fuzz: hostile schedule_prior values are read into a valid prior or refused naming the field, never a trap")
    func fuzz() throws {
        let base = try Self.document { $0 }
        let text = String(decoding: base, as: UTF8.self)
        let object = "\"schedule_prior\": {\n    \"other_share\": 0.08,\n    \"usual_share\": 0.85,\n    \"weight_days\": 64\n  }"
        try #require(text.contains(object), "the fuzz replaces the encoded object; its layout changed")
        let values = ["0", "-0", "1", "1.0000000001", "-1e-300", "1e-320", "4096", "4096.0001", "1e308", "-1e308", "1e999",
                      "\"0.5\"", "null", "true", "[]", "{}", "[0.5]", "0.5e0", "7e-1"]
        var rng = SeededGenerator(seed: 668)
        var accepted = 0, refused = 0
        for _ in 0..<2000 {
            func pick() -> String { values[Int(rng.next() % UInt64(values.count))] }
            var fields = ["\"other_share\": \(pick())", "\"usual_share\": \(pick())", "\"weight_days\": \(pick())"]
            if rng.next() % 8 == 0 { fields.remove(at: Int(rng.next() % 3)) }
            if rng.next() % 8 == 0 { fields.append("\"extra\": \(pick())") }
            let replaced = text.replacingOccurrences(of: object, with: "\"schedule_prior\": {" + fields.joined(separator: ", ") + "}")
            do {
                let prior = try #require(try ModelArtifact.decode(Array(replaced.utf8)).schedulePrior)
                #expect((0...1).contains(prior.usualShare) && (0...1).contains(prior.otherShare))
                #expect((0...SchedulePrior.maximumWeight).contains(prior.weightDays))
                accepted += 1
            } catch LearningError.invalidArtifact(let field, _) {
                #expect(field.hasPrefix("schedule_prior") || field == "(document)", "\(field)")
                refused += 1
            }
        }
        #expect(accepted > 0 && refused > 0, "accepted \(accepted), refused \(refused)")
    }

    @Test("a newer reader's prior is refused by version, never ignored: format 4 is unsupported")
    func newerVersion() throws {
        let bytes = try Self.document { $0.replacingOccurrences(of: "\"format_version\": 3", with: "\"format_version\": 4") }
        #expect(throws: LearningError.unsupportedFormatVersion(found: 4, supported: 3)) { try ModelArtifact.decode(bytes) }
    }
}
