import Foundation
import Learning

/// A model directory on disk: `model.json` (the artifact) and `MODEL_CARD.md`.
public enum ModelFiles {
    public static let artifactName = "model.json"
    public static let cardName = "MODEL_CARD.md"

    public static func write(artifact: ModelArtifact, card: String, to directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(artifact.encode()).write(to: URL(fileURLWithPath: directory + "/" + artifactName), options: .atomic)
            try Data(card.utf8).write(to: URL(fileURLWithPath: directory + "/" + cardName), options: .atomic)
        } catch {
            throw ModelStoreError("cannot write the model to \(directory): \(error.localizedDescription)")
        }
    }

    public static func read(from directory: String) throws -> ModelArtifact {
        try decodeArtifact(in: directory) { try ModelArtifact.decode($0) }
    }

    /// DIR/model.json decoded by `decode`; errors name the file.
    static func decodeArtifact<A>(in directory: String, _ decode: ([UInt8]) throws -> A) throws -> A {
        let path = directory + "/" + artifactName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelStoreError("no model artifact at \(path)")
        }
        do {
            return try decode(Array(data))
        } catch {
            throw ModelStoreError("\(path): \(error)")
        }
    }
}
