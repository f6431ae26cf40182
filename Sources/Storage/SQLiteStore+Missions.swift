import RunusCore

extension SQLiteStore: MissionStore {
    /// Inserts an assignment; a duplicate id throws (SQLITE_CONSTRAINT).
    public func insertAssignment(_ a: MissionAssignment) throws {
        try connection.withStatement(StoreSQL.insertAssignment) { s in
            try s.bind(a.id, at: 1)
            try s.bind(a.userID, at: 2)
            try s.bind(a.day.isoText, at: 3)
            try s.bind(a.kind, at: 4)
            try s.bind(a.specJSON, at: 5)
            try s.bind(a.modelVersion, at: 6)
            try s.bind(a.pComplete, at: 7)
            try s.bind(a.xp, at: 8)
            try s.bind(a.status.rawValue, at: 9)
            try s.bind(a.runID, at: 10)
            try s.bind(a.progress, at: 11)
            try s.bind(a.pTrue, at: 12)
            try s.bind(a.offeredAt, at: 13)
            try s.step()
        }
    }

    /// Updates status, run id and progress; throws `StorageError.notFound` for an unknown id.
    public func updateAssignment(user: UserID, id: String, status: MissionStatus, runID: String?, progress: Double?) throws {
        let changed = try connection.withStatement(StoreSQL.updateAssignment) { s in
            try s.bind(status.rawValue, at: 1)
            try s.bind(runID, at: 2)
            try s.bind(progress, at: 3)
            try s.bind(user, at: 4)
            try s.bind(id, at: 5)
            try s.step()
            return connection.changes
        }
        if changed == 0 { throw StorageError.notFound(table: "mission_assignments", id: id) }
    }

    /// A runner's assignments for one local day, in insertion order.
    public func assignments(user: UserID, day: CivilDate) throws -> [MissionAssignment] {
        try connection.withStatement(StoreSQL.assignmentsOfDay) { s in
            try s.bind(user, at: 1)
            try s.bind(day.isoText, at: 2)
            return try Self.assignments(from: s)
        }
    }

    /// A runner's assignments with day in [from, to], ordered by day then insertion.
    public func assignments(user: UserID, from: CivilDate, to: CivilDate) throws -> [MissionAssignment] {
        try connection.withStatement(StoreSQL.assignmentsInRange) { s in
            try s.bind(user, at: 1)
            try s.bind(from.isoText, at: 2)
            try s.bind(to.isoText, at: 3)
            return try Self.assignments(from: s)
        }
    }

    /// Every completed or failed assignment, ordered by offeredAt, id, then user (training labels).
    public func decidedAssignments() throws -> [MissionAssignment] {
        try connection.withStatement(StoreSQL.decidedAssignments) { s in try Self.assignments(from: s) }
    }

    static func assignments(from s: Statement) throws -> [MissionAssignment] {
        var result: [MissionAssignment] = []
        while try s.step() { result.append(try assignment(from: s)) }
        return result
    }

    private static func assignment(from s: Statement) throws -> MissionAssignment {
        let dayText = s.string(at: 2)
        guard let day = CivilDate(iso: dayText) else {
            throw StorageError.invalidValue(table: "mission_assignments", column: "day", value: dayText,
                                            expected: "a date YYYY-MM-DD")
        }
        let statusText = s.string(at: 8)
        guard let status = MissionStatus(rawValue: statusText) else {
            throw StorageError.invalidValue(table: "mission_assignments", column: "status", value: statusText,
                                            expected: MissionStatus.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return MissionAssignment(id: s.string(at: 0), userID: s.string(at: 1), day: day, kind: s.string(at: 3),
                                 specJSON: s.string(at: 4), modelVersion: s.string(at: 5),
                                 pComplete: s.double(at: 6), xp: s.int(at: 7), status: status,
                                 runID: s.optionalString(at: 9), progress: s.optionalDouble(at: 10),
                                 pTrue: s.optionalDouble(at: 11), offeredAt: s.double(at: 12))
    }
}

extension CivilDate {
    /// `YYYY-MM-DD`, the stored form of a local day; text order is date order for years
    /// 0...9999. Same text as `description`, built without string interpolation because it runs
    /// once per inserted assignment.
    var isoText: String {
        guard (0...9999).contains(year) else { return description }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func put(_ value: Int, _ digits: Int, at start: Int) {
                var v = value, i = start + digits
                while i > start {
                    i -= 1
                    buffer[i] = 48 + UInt8(v % 10)  // 48 = "0"
                    v /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            return 10
        }
    }
}
