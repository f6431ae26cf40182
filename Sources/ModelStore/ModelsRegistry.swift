import Foundation
import RunusCore
import Learning

/// The model registry: a directory (`models/`) whose sub-directories each hold one trained model
/// (`model.json` + `MODEL_CARD.md`), plus `promotions.json`, the promotion history:
///
///     { "format_version": 1, "promoted": ["gbdt-1", "gbdt-2"], "history": [
///         { "action": "promote", "model": "gbdt-1", "model_version": "gbdt-…", "at": "2026-…Z" }, … ] }
///
/// `promoted` is a stack: promote pushes, rollback pops, so a rollback restores the promotion
/// before it; with an empty stack the registry serves `default` (the shipped model). `history`
/// keeps every action. The file is replaced atomically (write a temporary file, then rename):
/// a daemon reading it mid-promotion sees the old or the new file, never half of one
/// (docs/decisions/0614).
public struct ModelsRegistry {
    public let root: String
    public static let promotionsName = "promotions.json"
    public static let defaultName = "default"

    public init(root: String) { self.root = root }

    public struct Entry {
        public let name: String
        public let directory: String
        public let artifact: AnyModelArtifact?
        /// Why the artifact could not be read, when it could not.
        public let problem: String?
    }

    public struct Promotions {
        public var promoted: [String] = []
        public var history: [JSONValue] = []
    }

    public var promotionsPath: String { root + "/" + Self.promotionsName }

    /// Every sub-directory holding a model.json, sorted by name.
    public func entries() throws -> [Entry] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: root) } catch {
            throw ModelStoreError("model registry \(root): cannot list it: \(error.localizedDescription)")
        }
        return names.sorted().compactMap { name in
            let directory = root + "/" + name
            guard FileManager.default.fileExists(atPath: directory + "/" + ModelFiles.artifactName) else { return nil }
            do {
                return Entry(name: name, directory: directory, artifact: try ModelFiles.readAny(from: directory), problem: nil)
            } catch {
                return Entry(name: name, directory: directory, artifact: nil, problem: "\(error)")
            }
        }
    }

    public func readPromotions() throws -> Promotions {
        guard let data = FileManager.default.contents(atPath: promotionsPath) else { return Promotions() }
        let document: JSONValue
        do { document = try JSONParser.parse(Array(data)) } catch {
            throw ModelStoreError("\(promotionsPath): not JSON: \(error)")
        }
        guard let stack = document["promoted"]?.arrayValue, let history = document["history"]?.arrayValue else {
            throw ModelStoreError("\(promotionsPath): expected an object with arrays 'promoted' and 'history'")
        }
        let names = try stack.map { value -> String in
            guard let s = value.stringValue else { throw ModelStoreError("\(promotionsPath): 'promoted' holds \(JSONWriter.string(value)), expected model names") }
            return s
        }
        return Promotions(promoted: names, history: history)
    }

    public func writePromotions(_ p: Promotions) throws {
        let document: JSONValue = ["format_version": 1, "promoted": .array(p.promoted.map { .string($0) }), "history": .array(p.history)]
        let temporary = promotionsPath + ".tmp-\(getpid())"
        do {
            try Data(JSONWriter.bytes(document) + [0x0A]).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, promotionsPath) == 0 else {
                throw ModelStoreError("rename \(temporary) → \(promotionsPath): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw ModelStoreError("model registry: cannot write \(promotionsPath): \(error)")
        }
    }

    /// The name of the model served: the top of the promotion stack, else `default`.
    public func servedName() throws -> String { try readPromotions().promoted.last ?? Self.defaultName }

    /// The directory of the served model; throws when it has no model.json.
    public func servedDirectory() throws -> String {
        let name = try servedName()
        let directory = root + "/" + name
        guard FileManager.default.fileExists(atPath: directory + "/" + ModelFiles.artifactName) else {
            throw ModelStoreError("model registry \(root): the served model '\(name)' has no \(ModelFiles.artifactName)")
        }
        return directory
    }

    /// A directory name directly inside the registry: not empty, no `/`, not `.` or `..`.
    public static func isModelName(_ name: String) -> Bool { !name.isEmpty && !name.contains("/") && name != "." && name != ".." }

    /// Promotes `name` after checking that it loads and scores with this build's schema.
    public func promote(_ name: String, at instant: EpochSeconds) throws -> LoadedModel {
        guard Self.isModelName(name) else {
            throw ModelStoreError("models promote: '\(name)' is not a model name (a directory in \(root))")
        }
        let loaded = try ModelFiles.load(from: root + "/" + name)
        var p = try readPromotions()
        p.promoted.append(name)
        p.history.append(Self.event("promote", name, loaded.artifact.modelVersion, instant))
        try writePromotions(p)
        return loaded
    }

    /// Pops the current promotion; returns (rolled back, now served).
    public func rollback(at instant: EpochSeconds) throws -> (from: String, to: String) {
        var p = try readPromotions()
        guard let from = p.promoted.popLast() else {
            throw ModelStoreError("models rollback: nothing is promoted in \(root); '\(Self.defaultName)' is served already")
        }
        let to = p.promoted.last ?? Self.defaultName
        let version = (try? ModelFiles.readAny(from: root + "/" + to))?.modelVersion ?? "?"
        p.history.append(Self.event("rollback", to, version, instant, from: from))
        try writePromotions(p)
        return (from, to)
    }

    public static func event(_ action: String, _ model: String, _ version: String, _ instant: EpochSeconds, from: String? = nil) -> JSONValue {
        var e: [String: JSONValue] = ["action": .string(action), "model": .string(model), "model_version": .string(version),
                                      "at": .string(Date(timeIntervalSince1970: instant).formatted(.iso8601))]
        if let from { e["from"] = .string(from) }
        return .object(e)
    }
}

/// Where the daemon takes its model: a fixed directory (`serve --model DIR`), or the registry's
/// served model, resolved again at every reload (`serve --models DIR`).
public enum ModelSource: Sendable {
    case directory(String)
    case registry(String)

    public init(model: String?, models: String) throws {
        self = model.map { .directory($0) } ?? .registry(models)
    }

    public func directory() throws -> String {
        switch self {
        case .directory(let d): return d
        case .registry(let root): return try ModelsRegistry(root: root).servedDirectory()
        }
    }
}
