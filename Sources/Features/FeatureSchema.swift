import RunusCore

/// One model input: the single source of truth for its name, unit, meaning and missing policy.
/// `docs/features.md` is generated from these (`runus features --markdown`).
public struct FeatureDefinition: Sendable, Equatable {
    public let name: String
    public let unit: String
    public let meaning: String
    /// What the value is when the input it needs is absent.
    public let missing: String
}

/// An ordered list of features and its hash. A model artifact records the hash; the daemon
/// refuses a model whose hash differs from the code's.
public struct FeatureSchema: Sendable, Equatable {
    public let version: Int
    public let features: [FeatureDefinition]

    public var names: [String] { features.map(\.name) }
    public var count: Int { features.count }

    /// FNV-1a 64-bit over the version and every feature's name and unit, as 16 hex digits.
    /// Meanings and missing policies are documentation and do not change the hash.
    public var hash: String {
        var h = FNV1a()
        // Each text ends with the unit separator 0x1F, which no name or unit contains.
        func mix(_ text: String) { h.add(bytes: text.utf8); h.add(0x1F) }
        mix("v\(version)")
        for f in features { mix(f.name); mix(f.unit) }
        return h.hex
    }

    /// The schema as a Markdown table.
    public func markdown() -> String {
        var lines = ["| # | feature | unit | meaning | when missing |", "|---|---|---|---|---|"]
        for (i, f) in features.enumerated() {
            lines.append("| \(i) | `\(f.name)` | \(f.unit) | \(f.meaning) | \(f.missing) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
