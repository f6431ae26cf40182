import RunusCore

/// Plainer versions of one request line, for the last step of minimizing a reproducer: the id
/// made `1`, one optional parameter dropped, the track cut to its first half or to its two
/// ends. Each is written with `JSONWriter` (sorted keys); the triage keeps one only when the
/// daemon still crashes the same way.
public enum LineSimplifier {
    /// Parameters a request can do without.
    static let optional = ["date", "k", "stretch", "refresh", "bucket", "utc_offset_s", "weight_kg", "birth_year", "sex",
                           "height_cm", "capacity", "public"]

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
