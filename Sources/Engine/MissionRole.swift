import RunusCore

/// What an assignment is to the runner's day, read from its id (the store has no column for
/// it): one of the day's daily missions, the day's stretch mission, or a mission the runner set
/// (`missions.custom`, record 0535). Every answer that lists missions flags the last two
/// (`stretch`, `custom`), and lists them all (record 0536).
public enum MissionRole: String, Sendable, CaseIterable {
    case daily, stretch, custom

    /// Offered ids are `day-round-slot` with `-stretch` for the stretch mission (record 0524) and
    /// begin with the day's year; custom ids are `custom:day:n` (`MissionService.customID`): no
    /// offered id contains `:`.
    public init(assignmentID id: String) {
        if id.hasPrefix(Self.customPrefix) { self = .custom }
        else if id.hasSuffix(MissionService.stretchSuffix) { self = .stretch }
        else { self = .daily }
    }

    /// The beginning of every custom mission's id.
    static let customPrefix = "custom:"
}

extension MissionAssignment {
    /// The assignment's role in its day (`MissionRole`).
    public var role: MissionRole { MissionRole(assignmentID: id) }
}
