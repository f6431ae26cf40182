import RunusCore

/// A text form of a trained forest, so trained parameters can be shipped as source (record
/// 0147): a header line `forest <classCount> <featureCount> <trees>`, then per tree a line
/// `tree <nodes>` and one line per node, `<feature> <threshold> <left> <right>` for a split or
/// `leaf <p0> … <pK−1>` for a leaf. Numbers are Swift's shortest round-trip decimal form, so
/// decoding gives back the same bits.
extension DecisionForest {
    /// The forest as text (see the type's comment); `init(text:)` reads it back exactly.
    public var text: String {
        var out = "forest \(classCount) \(featureCount) \(trees.count)\n"
        for tree in trees {
            out += "tree \(tree.feature.count)\n"
            for i in tree.feature.indices {
                if tree.feature[i] < 0 {
                    out += "leaf " + tree.leaf[i].map { "\($0)" }.joined(separator: " ") + "\n"
                } else {
                    out += "\(tree.feature[i]) \(tree.threshold[i]) \(tree.left[i]) \(tree.right[i])\n"
                }
            }
        }
        return out
    }

    /// Reads a forest written by `text`.
    /// - Throws: `DecisionForestTextError` naming the line and what was expected.
    public init(text: String) throws {
        var lines = text.split(separator: "\n").makeIterator()
        var lineNumber = 0
        func next(_ expected: String) throws -> [Substring] {
            lineNumber += 1
            guard let line = lines.next() else { throw DecisionForestTextError(line: lineNumber, message: "ended; expected \(expected)") }
            return line.split(separator: " ")
        }
        func int(_ s: Substring, _ what: String) throws -> Int {
            guard let v = Int(s) else { throw DecisionForestTextError(line: lineNumber, message: "\(what) must be an integer, got '\(s)'") }
            return v
        }
        let header = try next("'forest <classes> <features> <trees>'")
        guard header.count == 4, header[0] == "forest" else {
            throw DecisionForestTextError(line: lineNumber, message: "expected 'forest <classes> <features> <trees>', got '\(header.joined(separator: " "))'")
        }
        let classCount = try int(header[1], "class count"), featureCount = try int(header[2], "feature count")
        let treeCount = try int(header[3], "tree count")
        var trees: [Tree] = []
        for _ in 0..<treeCount {
            let head = try next("'tree <nodes>'")
            guard head.count == 2, head[0] == "tree" else {
                throw DecisionForestTextError(line: lineNumber, message: "expected 'tree <nodes>', got '\(head.joined(separator: " "))'")
            }
            let nodes = try int(head[1], "node count")
            var tree = Tree()
            for _ in 0..<nodes {
                let f = try next("a node")
                if f.first == "leaf" {
                    let p = f.dropFirst().compactMap { Double($0) }
                    guard p.count == classCount, f.count == classCount + 1 else {
                        throw DecisionForestTextError(line: lineNumber, message: "expected \(classCount) leaf probabilities")
                    }
                    tree.feature.append(-1); tree.threshold.append(0); tree.left.append(-1); tree.right.append(-1)
                    tree.leaf.append(p)
                } else {
                    guard f.count == 4, let threshold = Double(f[1]) else {
                        throw DecisionForestTextError(line: lineNumber, message: "expected '<feature> <threshold> <left> <right>'")
                    }
                    let feature = try int(f[0], "feature"), left = try int(f[2], "left"), right = try int(f[3], "right")
                    guard (0..<featureCount).contains(feature), left > 0, left < nodes, right > 0, right < nodes else {
                        throw DecisionForestTextError(line: lineNumber, message: "feature or child index out of range")
                    }
                    tree.feature.append(feature); tree.threshold.append(threshold); tree.left.append(left); tree.right.append(right)
                    tree.leaf.append([])
                }
            }
            trees.append(tree)
        }
        self.init(trees: trees, classCount: classCount, featureCount: featureCount)
    }
}

/// A forest text that could not be read: the line (1-based) and what was wrong.
public struct DecisionForestTextError: Error, CustomStringConvertible {
    public let line: Int
    public let message: String
    public var description: String { "forest text line \(line): \(message)" }
}
