import RunusCore

/// Plainer versions of one request line, for the last step of minimizing a reproducer: the id
/// made `1`, one optional parameter dropped, the track cut to its first half or to its two
/// ends. Each is written with `JSONWriter` (sorted keys); the triage keeps one only when the
/// daemon still crashes the same way.
public enum LineSimplifier {
    /// Parameters a request can do without.
    static let optional = ["date", "k", "refresh", "bucket", "utc_offset_s", "weight_kg", "birth_year", "sex",
                           "height_cm", "capacity", "public", "kind", "status", "offset", "limit"]

    public static func candidates(_ line: FuzzLine) -> [FuzzLine] {
        let physical = line.answeredLines
        guard physical.count == 1, let value = try? JSONParser.parse(physical[0]), case .object(let members) = value else { return [] }
        func make(_ m: [String: JSONValue]) -> FuzzLine {
            var bytes = JSONWriter.bytes(.object(m))
            bytes.append(0x0A)
            return FuzzLine(bytes: bytes, family: line.family, expectation: line.expectation, keepsState: line.keepsState,
                            user: line.user, declaredID: m["id"] ?? .null)
        }
        var out: [FuzzLine] = []
        if let id = members["id"], id != .number(1) {
            var m = members
            m["id"] = .number(1)
            out.append(make(m))
        }
        for key in optional where members[key] != nil {
            var m = members
            m[key] = nil
            out.append(make(m))
        }
        if let rounded = roundedPoints(line), rounded.bytes != line.bytes { out.append(rounded) }
        if let points = members["points"]?.arrayValue, points.count > 2 {
            var m = members
            m["points"] = .array(Array(points.prefix((points.count + 1) / 2)))
            out.append(make(m))
            m["points"] = .array([points[0], points[points.count - 1]])
            out.append(make(m))
        }
        return out
    }
}

extension LineSimplifier {
    /// The sequence with every `user` value renamed to `runner-1`, `runner-2`, … in order of
    /// first use, and every `run_id` to `run-1`, … (stored ids and answers do not depend on the
    /// names, except where a name is the bug: the triage keeps the rename only if it still fails).
    public static func renamed(_ lines: [FuzzLine]) -> [FuzzLine] {
        var users: [String: String] = [:], runs: [String: String] = [:]
        return lines.map { line in
            guard line.answerCount == 1, let value = try? JSONParser.parse(line.answeredLines[0]),
                  case .object(var m) = value else { return line }
            if let u = m["user"]?.stringValue {
                if users[u] == nil { users[u] = "runner-\(users.count + 1)" }
                m["user"] = .string(users[u]!)
            }
            if let r = m["run_id"]?.stringValue {
                if runs[r] == nil { runs[r] = "run-\(runs.count + 1)" }
                m["run_id"] = .string(runs[r]!)
            }
            var bytes = JSONWriter.bytes(.object(m))
            bytes.append(0x0A)
            return FuzzLine(bytes: bytes, family: line.family, expectation: line.expectation, keepsState: line.keepsState,
                            user: m["user"]?.stringValue ?? line.user, declaredID: m["id"] ?? .null)
        }
    }

    /// The line with the coordinates of its points rounded to 5 decimals (about 1 m).
    public static func roundedPoints(_ line: FuzzLine) -> FuzzLine? {
        guard line.answerCount == 1, let value = try? JSONParser.parse(line.answeredLines[0]),
              case .object(var m) = value, let points = m["points"]?.arrayValue else { return nil }
        m["points"] = .array(points.map { p in
            guard case .array(var f) = p else { return p }
            for k in 1...2 where k < f.count {
                if let x = f[k].doubleValue { f[k] = .number((x * 1e5).rounded() / 1e5) }
            }
            return .array(f)
        })
        var bytes = JSONWriter.bytes(.object(m))
        bytes.append(0x0A)
        return FuzzLine(bytes: bytes, family: line.family, expectation: line.expectation, keepsState: line.keepsState,
                        user: line.user, declaredID: m["id"] ?? .null)
    }
}
