import RunusCore

/// How a `KindCalibration` is written in, read from and applied by a model artifact.
extension KindCalibration {
    /// Prefix of a kind's one-hot feature column (`kind_<wire name>`, Features' schema).
    public static let kindColumnPrefix = "kind_"

    /// The maps resolved against an artifact's feature names: a row's kind is the one whose
    /// `kind_<name>` column holds 1 (none: the shared probability is served unchanged).
    public struct Columns: Sendable, Equatable {
        /// (column index, map), in column order.
        public let entries: [(column: Int, map: KindMap)]

        public static func == (a: Columns, b: Columns) -> Bool {
            a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.column == $1.column && $0.map == $1.map }
        }

        /// The served probability of `row` whose shared probability is `q`. A row too short for
        /// a column keeps `q` (scorers check the row width first; this never traps).
        public func probability(shared q: Double, row: [Double]) -> Double {
            for (column, map) in entries where column < row.count && row[column] == 1 { return map.probability(shared: q) }
            return q
        }

        /// Row `i` of `x` (x.cols = the artifact's feature count), as `probability(shared:row:)`.
        public func probability(shared q: Double, x: Matrix, row i: Int) -> Double {
            for (column, map) in entries where column < x.cols && x[i, column] == 1 { return map.probability(shared: q) }
            return q
        }
    }

    /// Resolves each kind to its `kind_<name>` column of `featureNames`; a kind without one is
    /// an invalid artifact (field "kind_calibration.kinds.<name>").
    public func columns(featureNames: [String]) throws -> Columns {
        var index: [String: Int] = [:]
        for (j, name) in featureNames.enumerated() { index[name] = j }
        var entries: [(column: Int, map: KindMap)] = []
        for (kind, map) in maps {
            guard let j = index[Self.kindColumnPrefix + kind] else {
                throw LearningError.invalidArtifact(field: "kind_calibration.kinds.\(kind)",
                                                    problem: "no feature column \"\(Self.kindColumnPrefix)\(kind)\" among the \(featureNames.count) features")
            }
            entries.append((j, map))
        }
        return Columns(entries: entries.sorted { $0.column < $1.column })
    }

    public var jsonValue: JSONValue {
        var kinds: [String: JSONValue] = [:]
        for (kind, m) in maps {
            kinds[kind] = ["slope": .number(m.slope), "intercept": .number(m.intercept), "rows": .number(Double(m.rows))]
        }
        return ["shrinkage": .number(shrinkage), "kinds": .object(kinds)]
    }

    /// Reads the object at `fields`; errors name the dotted field.
    static func decode(_ fields: Fields) throws -> KindCalibration {
        let lambda = try fields.number("shrinkage")
        guard lambda > 0, lambda.isFinite else {
            throw LearningError.invalidArtifact(field: fields.name("shrinkage"), problem: "\(lambda) must be finite and > 0")
        }
        let kinds = try fields.object("kinds")
        var maps: [String: KindMap] = [:]
        for kind in kinds.members.keys {
            let m = try kinds.object(kind)
            let slope = try m.number("slope"), intercept = try m.number("intercept"), rows = try m.int("rows")
            guard slope.isFinite, intercept.isFinite else {
                throw LearningError.invalidArtifact(field: m.name("slope"), problem: "slope \(slope) and intercept \(intercept) must be finite")
            }
            guard rows >= 1 else { throw LearningError.invalidArtifact(field: m.name("rows"), problem: "\(rows) must be >= 1") }
            maps[kind] = KindMap(slope: slope, intercept: intercept, rows: rows)
        }
        return KindCalibration(shrinkage: lambda, maps: maps)
    }

    /// The optional `kind_calibration` of a document's root, resolved against `featureNames`;
    /// nil when absent. `version`/`minimumVersion`: the document's format version and the first
    /// that may hold one.
    static func decodeOptional(_ root: Fields, version: Int, minimumVersion: Int,
                               featureNames: [String]) throws -> (KindCalibration, Columns)? {
        guard root.members["kind_calibration"] != nil else { return nil }
        if version < minimumVersion {
            throw LearningError.invalidArtifact(field: "kind_calibration", problem: "needs format_version \(minimumVersion), the document says \(version)")
        }
        let calibration = try decode(try root.object("kind_calibration"))
        return (calibration, try calibration.columns(featureNames: featureNames))
    }
}
