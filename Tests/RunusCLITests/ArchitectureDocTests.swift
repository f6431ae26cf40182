import Foundation
import Testing

/// The docs that are maps must match the territory: the module graph in docs/architecture.md
/// is Package.swift's, and docs/decisions/README.md lists every record (record 0010).
@Suite("docs are a map")
struct ArchitectureDocTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        let url = repository.appendingPathComponent(path)
        return String(decoding: try #require(FileManager.default.contents(atPath: url.path), "no \(path)"), as: UTF8.self)
    }

    /// Non-test targets of Package.swift and their dependencies, in file order.
    static func packageGraph(_ manifest: String) throws -> [(String, [String])] {
        let target = try Regex(#"\.(?:target|executableTarget|systemLibrary)\(name: "([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let quoted = try Regex(#""([^"]+)""#)
        return manifest.matches(of: target).map { match in
            let name = String(match.output[1].substring ?? "")
            let list = match.output[2].substring.map(String.init) ?? ""
            let dependencies = list.matches(of: quoted).map { String($0.output[1].substring ?? "") }
            return (name, dependencies)
        }
    }

    /// The lines of the ```modules block: `Name ─▶ a, b`.
    static func documentedGraph(_ doc: String) throws -> [(String, [String])] {
        let lines = doc.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "```modules"), "docs/architecture.md has no ```modules block")
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"), "the ```modules block is not closed")
        return try lines[(start + 1)..<end].map { line in
            let parts = line.components(separatedBy: "─▶")
            try #require(parts.count == 2, "not 'Module ─▶ deps': \(line)")
            let dependencies = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return (parts[0].trimmingCharacters(in: .whitespaces), dependencies)
        }
    }

    @Test("docs/architecture.md shows exactly Package.swift's targets and dependencies")
    func moduleGraph() throws {
        let package = try Self.packageGraph(Self.text("Package.swift"))
        let documented = try Self.documentedGraph(Self.text("docs/architecture.md"))
        #expect(package.count > 10, "the Package.swift pattern found only \(package.count) targets")
        let render = { (graph: [(String, [String])]) in graph.map { "\($0.0) ─▶ \($0.1.joined(separator: ", "))" } }
        #expect(render(documented) == render(package))
    }

    @Test("docs/decisions/README.md lists every record once, and only records that exist")
    func decisionIndex() throws {
        let folder = Self.repository.appendingPathComponent("docs/decisions").path
        let records = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".md") && $0.first?.isNumber == true }.sorted()
        let index = try Self.text("docs/decisions/README.md")
        let linked = index.matches(of: try Regex(#"\]\(([0-9]{4}-[^)]+\.md)\)"#)).map { String($0.output[1].substring ?? "") }
        #expect(records.count > 100)
        #expect(Set(linked) == Set(records), "missing: \(Set(records).subtracting(linked).sorted()); dangling: \(Set(linked).subtracting(records).sorted())")
        #expect(linked.count == Set(linked).count, "a record is listed twice")
    }
}
