import RunusCore

extension ModelArtifact {
    /// Reads an artifact written by `encode()` (or by hand). Throws `LearningError.invalidArtifact`
    /// naming the missing or malformed field as a dotted path ("parameters.scales[3]"), and
    /// `.unsupportedFormatVersion` for a `format_version` newer than `currentFormatVersion`.
    /// Unknown keys are ignored, so a reader accepts fields added later within format version 1.
    public static func decode(_ bytes: [UInt8]) throws -> ModelArtifact {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch let error as JSONParseError {
            throw LearningError.invalidArtifact(field: "(document)", problem: error.description)
        }
        let root = try Fields(document, path: "")
        let version = try root.int("format_version")
        if version > currentFormatVersion {
            throw LearningError.unsupportedFormatVersion(found: version, supported: currentFormatVersion)
        }
        if version < 1 { throw LearningError.invalidArtifact(field: "format_version", problem: "\(version) is not a format version (>= 1)") }
        let type = try root.string("model_type")
        if type != logisticRegressionType {
            throw LearningError.invalidArtifact(field: "model_type", problem: "\"\(type)\" is not \"\(logisticRegressionType)\"")
        }
        let schema = try root.object("feature_schema")
        let parameters = try root.object("parameters")
        let training = try root.object("training")
        let metricsObject = try root.object("metrics")
        var metrics: [String: Double] = [:]
        for key in metricsObject.members.keys { metrics[key] = try metricsObject.number(key) }
        let names = try schema.strings("names")
        let kindCalibration = try KindCalibration.decodeOptional(root, version: version, minimumVersion: 2, featureNames: names)?.0
        let schedulePrior = try SchedulePrior.decodeOptional(root, version: version, minimumVersion: 3)
        return try ModelArtifact(
            formatVersion: version, modelType: type, modelVersion: try root.string("model_version"),
            featureNames: names, featureSchemaHash: try schema.string("hash"),
            intercept: try parameters.number("intercept"), coefficients: try parameters.numbers("coefficients"),
            means: try parameters.numbers("means"), scales: try parameters.numbers("scales"),
            training: Training(fingerprint: try training.string("fingerprint"), rows: try training.int("rows"),
                               seed: try training.int("seed"), l2: try training.number("l2"),
                               iterations: try training.int("iterations"), converged: try training.bool("converged")),
            metrics: metrics, kindCalibration: kindCalibration, schedulePrior: schedulePrior)
    }
}

/// Typed access to one JSON object, with errors that carry the dotted path of the field.
struct Fields {
    let members: [String: JSONValue]
    let path: String

    init(_ value: JSONValue, path: String) throws {
        guard let members = value.objectValue else {
            throw LearningError.invalidArtifact(field: path.isEmpty ? "(document)" : path, problem: "expected an object, got \(value.typeName)")
        }
        self.members = members
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func value(_ key: String) throws -> JSONValue {
        guard let value = members[key] else { throw LearningError.invalidArtifact(field: name(key), problem: "is missing") }
        return value
    }

    func object(_ key: String) throws -> Fields { try Fields(value(key), path: name(key)) }

    func number(_ key: String) throws -> Double {
        let v = try value(key)
        guard let n = v.doubleValue else { throw LearningError.invalidArtifact(field: name(key), problem: "expected a number, got \(v.typeName)") }
        return n
    }

    func int(_ key: String) throws -> Int {
        let v = try value(key)
        guard let n = v.intValue else {
            throw LearningError.invalidArtifact(field: name(key), problem: "expected a whole number below 2^53, got \(JSONWriter.string(v))")
        }
        return n
    }

    func string(_ key: String) throws -> String {
        let v = try value(key)
        guard let s = v.stringValue else { throw LearningError.invalidArtifact(field: name(key), problem: "expected a string, got \(v.typeName)") }
        return s
    }

    func bool(_ key: String) throws -> Bool {
        let v = try value(key)
        guard let b = v.boolValue else { throw LearningError.invalidArtifact(field: name(key), problem: "expected true or false, got \(v.typeName)") }
        return b
    }

    func array(_ key: String) throws -> [JSONValue] {
        let v = try value(key)
        guard let a = v.arrayValue else { throw LearningError.invalidArtifact(field: name(key), problem: "expected an array, got \(v.typeName)") }
        return a
    }

    func numbers(_ key: String) throws -> [Double] {
        try array(key).enumerated().map { j, v in
            guard let n = v.doubleValue else {
                throw LearningError.invalidArtifact(field: "\(name(key))[\(j)]", problem: "expected a number, got \(v.typeName)")
            }
            return n
        }
    }

    func strings(_ key: String) throws -> [String] {
        try array(key).enumerated().map { j, v in
            guard let s = v.stringValue else {
                throw LearningError.invalidArtifact(field: "\(name(key))[\(j)]", problem: "expected a string, got \(v.typeName)")
            }
            return s
        }
    }
}
