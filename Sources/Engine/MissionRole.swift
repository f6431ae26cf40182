import RunusCore

/// What an assignment is to the runner's day, read from its id (the store has no column for
/// it): one of the day's daily missions, the day's stretch mission, a mission the runner set
/// (`missions.custom`, record 0535), or the mission of a race the runner joined (`RaceMissions`,
/// record 0649). Every answer that lists missions flags the last three (`stretch`, `custom`,
/// `race`), and lists them all (record 0536).
public enum MissionRole: String, Sendable, CaseIterable {
    case daily, stretch, custom, race

    /// Offered by the day's policy (daily or stretch): what a refresh replaces.
    public var isPolicyOffer: Bool { self == .daily || self == .stretch }

    /// Offered ids are `day-round-slot` with `-stretch` for the stretch mission (record 0524) and
    /// begin with the day's year; custom ids are `custom:day:n` (`MissionService.customID`) and
    /// race ones `race:day:n` (`RaceMissions.id`): no offered id contains `:`.
    public init(assignmentID id: String) {
        if id.hasPrefix(Self.customPrefix) { self = .custom }
        else if id.hasPrefix(Self.racePrefix) { self = .race }
        else if id.hasSuffix(MissionService.stretchSuffix) { self = .stretch }
        else { self = .daily }
    }

    /// The beginning of every custom mission's id.
    static let customPrefix = "custom:"
    /// The beginning of every race mission's id.
    static let racePrefix = "race:"
}

extension MissionAssignment {
    /// The assignment's role in its day (`MissionRole`).
    public var role: MissionRole { MissionRole(assignmentID: id) }
}
