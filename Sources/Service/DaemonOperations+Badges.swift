import RunusCore
import Engine
import Server

/// `badges.catalog` (docs/protocol.md): every badge with its criterion, and for a runner the
/// award time or the progress towards each, so that the app hard-codes none of them.
extension DaemonOperations {
    func badgesCatalog(_ request: Request) throws -> JSONValue {
        let user = try request.optional("user").map { _ in try request.string("user") }
        let entries = try WireErrors.engine("badges.catalog") {
            try BadgeProgressService(store: store, resolver: resolver).catalog(user: user)
        }
        return [
            "user": user.map { .string($0) } ?? .null,
            "badges": .array(entries.map { e in
                var object: [String: JSONValue] = [
                    "id": .string(e.badge.id), "name": .string(e.badge.name), "description": .string(e.badge.description),
                    "icon": .string(e.badge.icon), "tier": .string(e.badge.tier.rawValue),
                    "criteria": ["measure": .string(e.badge.measure.rawValue), "target": .number(e.badge.target),
                                 "kind": e.badge.kind.map { .string($0) } ?? .null],
                ]
                if user != nil {
                    object["earned"] = .bool(e.award != nil)
                    object["awarded_at"] = e.award.map { .number($0.awardedAt) } ?? .null
                    object["progress"] = .number((e.progress * 1000).rounded() / 1000)
                }
                return .object(object)
            }),
        ]
    }
}
