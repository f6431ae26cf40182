import RunusCore
import Missions
import Engine
import Server

/// `missions.history`: a runner's missions day by day, with the statuses days end with
/// (record 0534).
extension DaemonOperations {
    func missionsHistory(_ request: Request) throws -> JSONValue {
        let op = "missions.history"
        let user = try request.string("user")
        guard let from = try request.day("from"), let to = try request.day("to") else {
            throw RequestError.badRequest("\(op): parameters 'from' and 'to' (YYYY-MM-DD, local days) are required", field: request.optional("from") == nil ? "from" : "to")
        }
        guard from <= to, to.daysSinceEpoch - from.daysSinceEpoch < MissionHistoryService.maximumDays else {
            throw RequestError.badRequest("\(op): range \(from)…\(to) must be ordered and at most \(MissionHistoryService.maximumDays) days", field: "to")
        }
        var query = MissionHistoryQuery(from: from, to: to)
        if let value = request.optional("kind") {
            guard let text = value.stringValue, let kind = MissionKind(rawValue: text) else {
                throw RequestError.badRequest("\(op): parameter 'kind' is \(JSONWriter.string(value).prefix(40)), expected one of \(MissionKind.allCases.map(\.rawValue).joined(separator: ", "))", field: "kind")
            }
            query.kinds = [kind]
        }
        if let value = request.optional("status") {
            query.statuses = try Self.statuses(value, op: op)
        }
        if request.optional("offset") != nil {
            let offset = try request.int("offset")
            guard (0...Self.maximumHistoryOffset).contains(offset) else {
                throw RequestError.badRequest("\(op): parameter 'offset' is \(offset), expected 0...\(Self.maximumHistoryOffset)", field: "offset")
            }
            query.offset = offset
        }
        if request.optional("limit") != nil {
            let limit = try request.int("limit")
            guard (1...MissionHistoryService.maximumLimit).contains(limit) else {
                throw RequestError.badRequest("\(op): parameter 'limit' is \(limit), expected 1...\(MissionHistoryService.maximumLimit)", field: "limit")
            }
            query.limit = limit
        }
        let answer = try WireErrors.engine(op) {
            try MissionHistoryService(store: store, resolver: resolver).history(user: user, query: query, now: clock.now())
        }
        let next = query.offset + answer.entries.count
        return [
            "user": .string(user), "from": .string(from.description), "to": .string(to.description),
            "today": .string(answer.today.description),
            "total": .number(Double(answer.total)), "offset": .number(Double(query.offset)),
            "next_offset": next < answer.total ? .number(Double(next)) : .null,
            "missions": .array(answer.entries.map(Self.historyJSON)),
        ]
    }

    /// Largest `offset` accepted (far beyond any runner's missions).
    static let maximumHistoryOffset = 1_000_000

    /// `status`: one status name or a list of 1 to 5 of them.
    static func statuses(_ value: JSONValue, op: String) throws -> Set<MissionStatus> {
        let known = MissionStatus.allCases.map(\.rawValue).joined(separator: ", ")
        let items = value.arrayValue ?? [value]
        guard (1...MissionStatus.allCases.count).contains(items.count) else {
            throw RequestError.badRequest("\(op): parameter 'status' must be a status or a list of 1 to \(MissionStatus.allCases.count) of them (\(known))", field: "status")
        }
        var out = Set<MissionStatus>()
        for (i, item) in items.enumerated() {
            guard let text = item.stringValue, let status = MissionStatus(rawValue: text) else {
                throw RequestError.badRequest("\(op): status\(value.arrayValue == nil ? "" : "[\(i)]") is \(JSONWriter.string(item).prefix(40)), expected one of \(known)",
                                              field: "status", index: value.arrayValue == nil ? nil : i)
            }
            out.insert(status)
        }
        return out
    }

    static func historyJSON(_ e: MissionHistoryEntry) -> JSONValue {
        let a = e.assignment
        var entry: [String: JSONValue] = [
            "id": .string(a.id), "day": .string(a.day.description), "kind": .string(a.kind),
            "status": .string(e.status.rawValue),
            "stretch": .bool(a.role == .stretch), "custom": .bool(a.role == .custom), "race": .bool(a.role == .race),
            "first_day": .string(a.day.description), "last_day": .string(MissionWindow.lastDay(of: a).description),
            "p_complete": a.shownPComplete.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null,
            "xp": .number(Double(a.xp)),
            "xp_awarded": .number(Double(e.status == .completed ? a.xp : 0)),
            "run_id": e.status == .completed ? a.runID.map { .string($0) } ?? .null : .null,
            "progress": .number(e.status == .completed ? 1 : (min(a.progress ?? 0, 0.99) * 10_000).rounded() / 10_000),
            "offered_at": .number(a.offeredAt),
        ]
        if let spec = e.spec {
            entry["title"] = .string(MissionTitle.title(for: spec))
            entry["spec"] = spec.json
        }
        return .object(entry)
    }
}
