import Foundation
import RunusCore

/// One operation's spec file (`spec/protocol/<op>.json`) and the Markdown rendered from all of
/// them (`docs/protocol.md`). The specs are the source of truth; tests check the document, the
/// registered operations and live answers against them.
struct ProtocolSpec {
    struct Field {
        let name: String
        let type: String
        let required: Bool
        /// The value may be `null` (`"nullable": true` in the spec).
        let nullable: Bool
        let unit: String?
        let description: String
        /// For "object": its members; for "array": each element's members; for "map": each value's members.
        let children: [Field]?

        init(_ v: JSONValue) throws {
            guard let name = v["name"]?.stringValue, let type = v["type"]?.stringValue else {
                throw SpecError("a field needs 'name' and 'type': \(JSONWriter.string(v))")
            }
            guard Self.types.contains(type) else { throw SpecError("field '\(name)': unknown type '\(type)', expected one of \(Self.types.sorted())") }
            self.name = name
            self.type = type
            required = v["required"]?.boolValue ?? true
            nullable = v["nullable"]?.boolValue ?? false
            unit = v["unit"]?.stringValue
            description = v["description"]?.stringValue ?? ""
            let nested = v["fields"] ?? v["items"] ?? v["values"]
            children = try nested?.arrayValue.map { try $0.map(Field.init) }
        }

        static let types: Set<String> = ["string", "integer", "number", "boolean", "object", "array", "map", "any"]
    }

    struct Operation {
        let op: String
        let group: String
        let summary: String
        let parameters: [Field]
        let result: [Field]
        let errors: [(code: String, when: String)]
        let exampleRequest: JSONValue
        let exampleAnswer: JSONValue
        let notes: String?
        /// False when the example request depends on an earlier answer (a race token), so the
        /// live check cannot replay it; its example answer is still checked against the spec.
        let liveExample: Bool
    }

    let title: String
    let introduction: [String]
    let errorCodes: [(code: String, meaning: String)]
    let groups: [String]
    let closing: [String]
    let operations: [Operation]

    static let directory = "spec/protocol"

    init(root: String) throws {
        let dir = root + "/" + Self.directory
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
        func load(_ name: String) throws -> JSONValue {
            guard let data = FileManager.default.contents(atPath: dir + "/" + name) else { throw SpecError("cannot read \(name)") }
            do { return try JSONParser.parse(Array(data)) } catch { throw SpecError("\(name): \(error)") }
        }
        let top = try load("_protocol.json")
        title = top["title"]?.stringValue ?? ""
        introduction = top["introduction"]?.arrayValue?.compactMap(\.stringValue) ?? []
        closing = top["closing"]?.arrayValue?.compactMap(\.stringValue) ?? []
        groups = top["groups"]?.arrayValue?.compactMap(\.stringValue) ?? []
        errorCodes = (top["error_codes"]?.arrayValue ?? []).map { ($0["code"]?.stringValue ?? "", $0["meaning"]?.stringValue ?? "") }
        var operations: [Operation] = []
        for file in files where file != "_protocol.json" {
            let v = try load(file)
            guard let op = v["op"]?.stringValue, file == op + ".json" else { throw SpecError("\(file): 'op' must match the file name") }
            guard let group = v["group"]?.stringValue, groups.contains(group) else { throw SpecError("\(file): 'group' must be one of \(groups)") }
            guard let request = v["example"]?["request"], let answer = v["example"]?["answer"] else {
                throw SpecError("\(file): needs example.request and example.answer")
            }
            operations.append(Operation(
                op: op, group: group, summary: v["summary"]?.stringValue ?? "",
                parameters: try (v["parameters"]?.arrayValue ?? []).map(Field.init),
                result: try (v["result"]?.arrayValue ?? []).map(Field.init),
                errors: (v["errors"]?.arrayValue ?? []).map { ($0["code"]?.stringValue ?? "", $0["when"]?.stringValue ?? "") },
                exampleRequest: request, exampleAnswer: answer, notes: v["notes"]?.stringValue,
                liveExample: v["live_example"]?.boolValue ?? true))
        }
        let order = groups
        self.operations = operations.sorted { (order.firstIndex(of: $0.group)!, $0.op) < (order.firstIndex(of: $1.group)!, $1.op) }
    }

    // MARK: rendering

    func markdown() -> String {
        var out = "# \(title)\n\n" + introduction.joined(separator: "\n") + "\n\n"
        out += "### Error codes (closed set)\n\n| code | meaning |\n|---|---|\n"
        for (code, meaning) in errorCodes { out += "| `\(code)` | \(meaning) |\n" }
        out += "\nEvery operation can also answer `bad_json`, `bad_request`, `internal`, `unavailable` and\n"
        out += "(on an unauthenticated TCP connection) `unauthorized`; the errors listed below are the ones\n"
        out += "particular to each operation.\n"
        for group in groups {
            let members = operations.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            out += "\n## Operations: \(group)\n"
            for op in members { out += "\n" + render(op) }
        }
        if !closing.isEmpty { out += "\n" + closing.joined(separator: "\n") + "\n" }
        return out
    }

    private func render(_ op: Operation) -> String {
        var out = "### `\(op.op)`\n\n\(op.summary)\n\n"
        if op.parameters.isEmpty {
            out += "Parameters: none.\n\n"
        } else {
            out += "| parameter | type | meaning |\n|---|---|---|\n"
            for p in op.parameters { out += "| `\(p.name)` | \(typeText(p)), \(p.required ? "required" : "optional") | \(p.description) |\n" }
            out += "\n"
        }
        out += "Result:\n\n"
        for f in op.result { out += renderField(f, depth: 0) }
        out += "\n"
        if !op.errors.isEmpty {
            out += "Errors: " + op.errors.map { "`\($0.code)` when \($0.when)" }.joined(separator: "; ") + ".\n\n"
        }
        if let notes = op.notes { out += notes + "\n\n" }
        out += "    → \(JSONWriter.string(op.exampleRequest))\n    ← \(JSONWriter.string(op.exampleAnswer))\n"
        return out
    }

    private func typeText(_ f: Field) -> String {
        (f.unit.map { "\(f.type) (\($0))" } ?? f.type) + (f.nullable ? " or null" : "")
    }

    private func renderField(_ f: Field, depth: Int) -> String {
        let indent = String(repeating: "  ", count: depth)
        var line = "\(indent)- `\(f.name)` \(typeText(f))\(f.required ? "" : ", optional"): \(f.description)\n"
        if let children = f.children {
            let label = f.type == "array" ? "each element:" : f.type == "map" ? "each value:" : "members:"
            line += "\(indent)  \(label)\n"
            for c in children { line += renderField(c, depth: depth + 2) }
        }
        return line
    }

    // MARK: validation

    /// Problems of `value` against `fields` (empty when it conforms); `path` names the place.
    static func problems(_ value: JSONValue, _ fields: [Field], path: String) -> [String] {
        guard case .object(let members) = value else { return ["\(path): expected an object, got \(value.typeName)"] }
        var found: [String] = []
        for f in fields {
            guard let v = members[f.name] else {
                if f.required { found.append("\(path).\(f.name): missing") }
                continue
            }
            found += problems(v, f, path: "\(path).\(f.name)")
        }
        let known = Set(fields.map(\.name))
        for key in members.keys where !known.contains(key) { found.append("\(path).\(key): not in the spec") }
        return found
    }

    private static func problems(_ v: JSONValue, _ f: Field, path: String) -> [String] {
        if v.isNull && f.nullable { return [] }
        let ok: Bool
        switch f.type {
        case "string": ok = v.stringValue != nil
        case "integer": ok = v.intValue != nil
        case "number": ok = v.doubleValue != nil
        case "boolean": ok = v.boolValue != nil
        case "object", "map": ok = v.objectValue != nil
        case "array": ok = v.arrayValue != nil
        default: ok = true
        }
        guard ok else { return ["\(path): expected \(f.type), got \(v.typeName)"] }
        guard let children = f.children else { return [] }
        switch f.type {
        case "array": return v.arrayValue!.enumerated().flatMap { problems($1, children, path: "\(path)[\($0)]") }
        case "map": return v.objectValue!.flatMap { problems($1, children, path: "\(path)[\($0)]") }
        default: return problems(v, children, path: path)
        }
    }
}

struct SpecError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
