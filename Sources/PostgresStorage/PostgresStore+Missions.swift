import RunusCore
import Storage

extension PostgresStore: MissionStore {
    /// Inserts an assignment; a duplicate `(user, id)` throws (SQLSTATE 23505).
    public func insertAssignment(_ a: MissionAssignment) throws {
        try write(PostgresSQL.insertAssignment, [
            .text(a.id), .text(a.userID), .text(a.day.description), .text(a.kind), .text(a.specJSON),
            .text(a.modelVersion), .double(a.pComplete), .int(a.xp), .text(a.status.rawValue), .text(a.runID),
            .double(a.progress), .double(a.pTrue), .double(a.offeredAt),
        ])
    }

    /// Updates status, run id and progress; throws `StorageError.notFound` for an unknown id.
    public func updateAssignment(user: UserID, id: String, status: MissionStatus, runID: String?, progress: Double?) throws {
        let changed = try write(PostgresSQL.updateAssignment,
                                [.text(status.rawValue), .text(runID), .double(progress), .text(user), .text(id)])
        if changed == 0 { throw StorageError.notFound(table: "mission_assignments", id: id) }
    }

    /// A runner's assignments for one local day, in insertion order.
    public func assignments(user: UserID, day: CivilDate) throws -> [MissionAssignment] {
        try Self.assignments(try rows(PostgresSQL.assignmentsOfDay, [.text(user), .text(day.description)]))
    }

    /// A runner's assignments with day in [from, to], ordered by day then insertion.
    public func assignments(user: UserID, from: CivilDate, to: CivilDate) throws -> [MissionAssignment] {
        try Self.assignments(try rows(PostgresSQL.assignmentsInRange,
                                      [.text(user), .text(from.description), .text(to.description)]))
    }

    /// Every completed or failed assignment, ordered by offeredAt, id, then user (training labels).
    public func decidedAssignments() throws -> [MissionAssignment] {
        try Self.assignments(try rows(PostgresSQL.decidedAssignments))
    }

    static func assignments(_ r: PGRows) throws -> [MissionAssignment] {
        try (0..<r.count).map { i in
            let dayText = try r.string(i, 2)
            guard let day = CivilDate(iso: dayText) else {
                throw StorageError.invalidValue(table: "mission_assignments", column: "day", value: dayText,
                                                expected: "a date YYYY-MM-DD")
            }
            let statusText = try r.string(i, 8)
            guard let status = MissionStatus(rawValue: statusText) else {
                throw StorageError.invalidValue(table: "mission_assignments", column: "status", value: statusText,
                                                expected: MissionStatus.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return MissionAssignment(id: try r.string(i, 0), userID: try r.string(i, 1), day: day, kind: try r.string(i, 3),
                                     specJSON: try r.string(i, 4), modelVersion: try r.string(i, 5),
                                     pComplete: try r.double(i, 6), xp: try r.int(i, 7), status: status,
                                     runID: try r.optionalString(i, 9), progress: try r.optionalDouble(i, 10),
                                     pTrue: try r.optionalDouble(i, 11), offeredAt: try r.double(i, 12))
        }
    }
}
