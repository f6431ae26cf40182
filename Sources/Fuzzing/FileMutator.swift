import RunusCore
import TrackFormats

/// A seed file for the mutator: its name (extension included: the reader falls back on it) and
/// its bytes, gunzipped.
public struct SeedFile: Sendable {
    public let name: String
    public let bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// A mutated file and the mutations that made it, in order.
public struct MutatedFile: Sendable {
    public let name: String
    public let bytes: [UInt8]
    public let seed: String
    public let mutations: [String]

    public var description: String { "\(seed): " + mutations.joined(separator: ", ") }
}

/// Mutations of track files (record 0540): byte flips, truncations, splices with another seed,
/// inserted and duplicated chunks, markup tokens inserted, numbers and timestamps replaced
/// (GPX, TCX, CSV, GeoJSON), FIT header and field changes with the CRCs fixed up, and gzip
/// wrappers (stored, broken, concatenated, or inflating a repeated chunk). One to three
/// mutations per file; file `index` of a seed is the same file on every run.
public struct FileMutator: Sendable {
    public let seeds: [SeedFile]
    public let seed: UInt64
    /// Size a duplication or an inflating gzip member grows a file to at most, bytes (a splice
    /// or an insertion may add a little more). 16 MiB by default; the test slice keeps files
    /// small, because a debug build reads them fifty times slower.
    public let maximumBytes: Int

    public init(seeds: [SeedFile], seed: UInt64, maximumBytes: Int = 16 << 20) {
        precondition(!seeds.isEmpty, "FileMutator needs at least one seed file")
        self.seeds = seeds
        self.seed = seed
        self.maximumBytes = maximumBytes
    }

    /// The `index`-th mutated file.
    public func file(_ index: Int) -> MutatedFile {
        var g = SeededGenerator(seed: seed, stream: UInt64(index))
        let source = seeds[g.int(in: 0...(seeds.count - 1))]
        var bytes = source.bytes
        var name = source.name
        var mutations: [String] = []
        for _ in 0..<PathologicalValues.pick([1, 1, 1, 2, 2, 3], &g) {
            mutations.append(mutate(&bytes, name: name, &g))
        }
        if g.bernoulli(0.12) {
            mutations.append(wrap(&bytes, &g))
            if !name.hasSuffix(".gz") { name += ".gz" }
        }
        if g.bernoulli(0.05) {
            let other = PathologicalValues.pick(["x.gpx", "x.tcx", "x.fit", "x.csv", "x.geojson", "x.json", "x", "x.gpx.gz"], &g)
            mutations.append("renamed to \(other)")
            name = other
        }
        return MutatedFile(name: name, bytes: bytes, seed: source.name, mutations: mutations)
    }

    func mutate(_ b: inout [UInt8], name: String, _ g: inout SeededGenerator) -> String {
        let isFIT = FITLayout(b) != nil
        if isFIT, g.bernoulli(0.6) { return fitMutation(&b, &g) }
        let tokens = isFIT ? [] : TextTokens.scan(b)
        if !tokens.isEmpty, g.bernoulli(0.45) { return tokenMutation(&b, tokens, &g) }
        return byteMutation(&b, &g)
    }

    func byteMutation(_ b: inout [UInt8], _ g: inout SeededGenerator) -> String {
        guard !b.isEmpty else { b = [0x3C]; return "empty → \"<\"" }
        let n = b.count
        switch g.int(in: 0...8) {
        case 0:
            let k = g.int(in: 1...8)
            for _ in 0..<k { b[g.int(in: 0...(n - 1))] ^= UInt8(1 << g.int(in: 0...7)) }
            return "flip \(k) bit(s)"
        case 1:
            let values: [UInt8] = [0x00, 0xFF, 0x7F, 0x80, 0x3C, 0x22, 0x0A, 0x2D]
            let k = g.int(in: 1...8)
            for _ in 0..<k { b[g.int(in: 0...(n - 1))] = PathologicalValues.pick(values, &g) }
            return "set \(k) byte(s) to special values"
        case 2:
            let at = g.bernoulli(0.2) ? PathologicalValues.pick([0, 1, 2, 11, 12, 13, 14, n / 2, n - 1], &g) : g.int(in: 0...(n - 1))
            b = Array(b[0..<min(max(at, 0), n)])
            return "truncate at \(at) of \(n)"
        case 3:
            let a = g.int(in: 0...(n - 1)), len = min(n - a, g.int(in: 1...max(1, n / 4)))
            b.removeSubrange(a..<(a + len))
            return "delete \(len) bytes at \(a)"
        case 4, 5:
            let a = g.int(in: 0...(n - 1)), len = min(n - a, g.int(in: 1...max(1, min(n, 65_536))))
            let times = PathologicalValues.pick([1, 1, 2, 10, 100, 1000], &g)
            let at = g.int(in: 0...n)
            let chunk = Array(b[a..<(a + len)])
            let copies = max(1, min(times, (maximumBytes - n) / max(1, len)))
            b.insert(contentsOf: Array([[UInt8]](repeating: chunk, count: copies).joined()), at: at)
            return "duplicate \(len) bytes from \(a) ×\(copies) at \(at)"
        case 6:
            let other = seeds[g.int(in: 0...(seeds.count - 1))]
            let cut = g.int(in: 0...n), from = other.bytes.isEmpty ? 0 : g.int(in: 0...(other.bytes.count - 1))
            b = Array(b[0..<cut]) + other.bytes[from...]
            return "splice at \(cut) with \(other.name) from \(from)"
        case 7:
            let token = PathologicalValues.pick(Self.markup, &g)
            let times = PathologicalValues.pick([1, 1, 3, 50], &g)
            let at = g.int(in: 0...n)
            b.insert(contentsOf: Array([[UInt8]](repeating: Array(token.utf8), count: times).joined()), at: at)
            return "insert \(JSONWriter.string(.string(token))) ×\(times) at \(at)"
        default:
            let len = g.int(in: 1...64)
            let at = g.int(in: 0...n)
            b.insert(contentsOf: (0..<len).map { _ in UInt8(truncatingIfNeeded: g.next()) }, at: at)
            return "insert \(len) random bytes at \(at)"
        }
    }

    /// Markup that steers the text readers into their corners.
    static let markup = [
        "<", ">", "<trkpt lat=\"1\" lon=\"2\">", "</trkpt>", "</trkseg>", "<trkseg>", "<![CDATA[", "]]>", "<!--", "-->", "<?xml version=\"1.0\"?>",
        "&", "&#x0;", "&#1114112;", "&amp", "\"", "'", "=", "<time>", "</time>", "<ele>", "</ele>", "xmlns:gpxtpx=", "<Trackpoint>",
        "</Trackpoint>", "<Position>", "<LatitudeDegrees>", "<Lap StartTime=\"x\">", "{", "}", "[", "]", ",", ":", "\"coordinates\":",
        "\"type\":\"LineString\"", "\"coordTimes\":", "\n", "\r\n", "\r", "t,lat,lon,ele,hr,cad\n", ",,,,,\n", "\u{0}", "\u{FEFF}", "é",
    ]

    func tokenMutation(_ b: inout [UInt8], _ tokens: [(range: Range<Int>, kind: TextTokens.Kind)], _ g: inout SeededGenerator) -> String {
        // Numbers are mostly replaced by ones the readers accept (extremes, -0, subnormals), so
        // that most such files get past the reader into the metrics and mission checks.
        func replacement(_ kind: TextTokens.Kind) -> String {
            guard kind == .number else { return PathologicalValues.pick(TextTokens.timestampReplacements, &g) }
            return g.bernoulli(0.7) ? PathologicalValues.pick(PathologicalValues.numbers, &g) : PathologicalValues.pick(TextTokens.numberReplacements, &g)
        }
        var chosen: [Int]
        let mode = g.int(in: 0...3)
        switch mode {
        case 0: chosen = [g.int(in: 0...(tokens.count - 1))]
        case 1: chosen = (0..<g.int(in: 2...8)).map { _ in g.int(in: 0...(tokens.count - 1)) }
        case 2:
            let stride = g.int(in: 2...6), offset = g.int(in: 0...(stride - 1))
            chosen = Array(Swift.stride(from: offset, to: tokens.count, by: stride))
            if chosen.isEmpty { chosen = [tokens.count - 1] }  // fewer tokens than the offset
        default:  // swap two timestamps (or numbers): a clock that goes backwards
            let a = g.int(in: 0...(tokens.count - 1))
            let same = tokens.indices.filter { tokens[$0].kind == tokens[a].kind && $0 != a }
            guard let other = same.isEmpty ? nil : PathologicalValues.pick(same, &g) else { chosen = [a]; break }
            let (x, y) = (min(a, other), max(a, other))
            let first = Array(b[tokens[x].range]), second = Array(b[tokens[y].range])
            b.replaceSubrange(tokens[y].range, with: first)
            b.replaceSubrange(tokens[x].range, with: second)
            return "swap tokens \(x) and \(y) of \(tokens.count)"
        }
        let one = g.bernoulli(0.5) ? replacement(tokens[chosen[0]].kind) : nil
        var used: [String] = []
        // One pass: thousands of replacements in a large file must not move the tail each time.
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var copied = 0
        for k in Set(chosen).sorted() {
            let text = one ?? replacement(tokens[k].kind)
            if used.count < 3 { used.append(text) }
            out += b[copied..<tokens[k].range.lowerBound]
            out += Array(text.utf8)
            copied = tokens[k].range.upperBound
        }
        out += b[copied...]
        b = out
        let label = mode == 2 ? "every \(chosen.count > 1 ? chosen[1] - chosen[0] : 1)th" : "\(Set(chosen).count)"
        return "replace \(label) of \(tokens.count) numeric/time tokens with \(used.map { "\"\($0.prefix(24))\"" }.joined(separator: "|"))"
    }
}
