import Foundation
import RunusCore
import Engine
import Learning

/// A model directory read and ready to serve: the artifact (any kind) and its scorer.
public struct LoadedModel: Sendable {
    public let artifact: AnyModelArtifact
    public let scorer: any MissionScorer
    /// The directory it was read from.
    public let directory: String
}

extension ModelFiles {
    /// Reads DIR/model.json of any kind (logistic regression or gradient boosting).
    public static func readAny(from directory: String) throws -> AnyModelArtifact {
        try decodeArtifact(in: directory) { try AnyModelArtifact.decode($0) }
    }

    /// The one loader used by `serve`, `model.reload`, `simulate-policy` and `models compare`:
    /// reads any artifact kind and builds its scorer, refusing a foreign feature schema.
    public static func load(from directory: String) throws -> LoadedModel {
        let artifact = try readAny(from: directory)
        do {
            return LoadedModel(artifact: artifact, scorer: try MissionScorers.make(artifact), directory: directory)
        } catch {
            throw ModelStoreError("\(directory)/\(artifactName): \(error)")
        }
    }

    public static func write(artifact: AnyModelArtifact, card: String, to directory: String) throws {
        switch artifact {
        case .logisticRegression(let a): try write(artifact: a, card: card, to: directory)
        case .gradientBoosting(let a): try write(bytes: a.encode(), card: card, to: directory)
        }
    }

    public static func write(bytes: [UInt8], card: String, to directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + artifactName), options: .atomic)
            try Data(card.utf8).write(to: URL(fileURLWithPath: directory + "/" + cardName), options: .atomic)
        } catch {
            throw ModelStoreError("cannot write the model to \(directory): \(error.localizedDescription)")
        }
    }
}
