import Testing
import Foundation
@testable import ModelStore
@testable import RunusCLI

/// Generated documents must match the code that generates them (one source of truth).
@Suite("generated docs")
struct GeneratedDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test("docs/features.md is what 'runus features --markdown' prints (run 'make docs' after changing features)")
    func featuresDoc() throws {
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["features", "--markdown"], output: out) == .success)
        let onDisk = try String(contentsOfFile: Self.root + "/docs/features.md", encoding: .utf8)
        #expect(onDisk == out.stdout)
    }

    @Test("the shipped default model matches this build's feature schema")
    func shippedModel() throws {
        let artifact = try ModelFiles.read(from: Self.root + "/models/default")
        let out = CapturedOutput()
        _ = RunusCLI.run(arguments: ["features"], output: out)
        #expect(out.stdout.contains("hash \(artifact.featureSchemaHash)"))
    }
}
