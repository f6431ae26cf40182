import Synchronization
import RunusCore

/// A store in memory, implementing the protocols exactly as documented (test double).
final class InMemoryStore: EngineStore {
    private struct State {
        var users: [UserID: UserProfile] = [:]
        var runs: [RunnerScopedID: RunRecord] = [:]
        var assignments: [MissionAssignment] = []
        var rewards: [RewardEntry] = []
        var badges: [BadgeAward] = []
        var answers: [RunnerScopedID: String] = [:]
        var races: [StoredRace] = []
        var raceEntries: [RaceLogEntry] = []
        var raceResults: [StoredRaceResult] = []
        /// (user, hour) → race (record 0550).
        var raceHolds: [RunnerHour: String] = [:]
    }
    struct RunnerHour: Hashable { let user: UserID; let hour: Int }
    struct Conflict: Error {}
    /// When set, every race write throws (a store that went away).
    let failRaceWrites = Atomic<Bool>(false)
    private let state = Mutex(State())

    func upsertUser(_ profile: UserProfile) throws { state.withLock { $0.users[profile.id] = profile } }
    func user(id: UserID) throws -> UserProfile? { state.withLock { $0.users[id] } }
    func allUsers() throws -> [UserProfile] { state.withLock { $0.users.values.sorted { $0.id < $1.id } } }
    func deleteUser(id: UserID) throws -> Bool {
        state.withLock { s in
            guard s.users.removeValue(forKey: id) != nil else { return false }
            s.runs = s.runs.filter { $0.key.user != id }
            s.assignments.removeAll { $0.userID == id }
            s.rewards.removeAll { $0.userID == id }
            s.badges.removeAll { $0.userID == id }
            s.answers = s.answers.filter { $0.key.user != id }
            s.raceEntries.removeAll { $0.userID == id }
            s.raceResults.removeAll { $0.userID == id }
            s.raceHolds = s.raceHolds.filter { $0.key.user != id }
            return true
        }
    }

    func insertRun(_ run: RunRecord) throws -> Bool {
        state.withLock {
            let key = RunnerScopedID(user: run.userID, id: run.id)
            guard $0.runs[key] == nil else { return false }
            $0.runs[key] = run
            return true
        }
    }
    /// Stored runs are read through `checkedForReading`, as the protocol says.
    private static func readable(_ run: RunRecord) -> RunRecord? {
        switch run.checkedForReading() {
        case .valid(let r), .repaired(let r, _): return r
        case .skipped: return nil
        }
    }
    func run(user: UserID, id: String) throws -> RunRecord? {
        state.withLock { $0.runs[RunnerScopedID(user: user, id: id)].flatMap(Self.readable) }
    }
    func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord] {
        state.withLock {
            $0.runs.values.filter { $0.userID == user && $0.startTime >= from && $0.startTime < to }
                .sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
                .compactMap(Self.readable)
                .map { var r = $0; r.track = nil; return r }
        }
    }

    func insertAssignment(_ assignment: MissionAssignment) throws { state.withLock { $0.assignments.append(assignment) } }
    func updateAssignment(user: UserID, id: String, status: MissionStatus, runID: String?, progress: Double?) throws {
        state.withLock {
            guard let i = $0.assignments.firstIndex(where: { $0.userID == user && $0.id == id }) else { return }
            $0.assignments[i].status = status; $0.assignments[i].runID = runID; $0.assignments[i].progress = progress
        }
    }
    func assignments(user: UserID, day: CivilDate) throws -> [MissionAssignment] {
        state.withLock { $0.assignments.filter { $0.userID == user && $0.day == day } }
    }
    func assignments(user: UserID, from: CivilDate, to: CivilDate) throws -> [MissionAssignment] {
        state.withLock { $0.assignments.filter { $0.userID == user && $0.day >= from && $0.day <= to } }
    }
    func decidedAssignments() throws -> [MissionAssignment] {
        state.withLock { $0.assignments.filter { $0.status == .completed || $0.status == .failed } }
    }
    var assignmentCount: Int { state.withLock { $0.assignments.count } }

    struct DuplicateReward: Error {}
    /// One award per (user, reason, ref), as the store's unique constraint says.
    func insertReward(_ reward: RewardEntry) throws {
        try state.withLock {
            guard !$0.rewards.contains(where: {
                $0.userID == reward.userID && ($0.id == reward.id || ($0.reason == reward.reason && $0.refID == reward.refID))
            }) else { throw DuplicateReward() }
            $0.rewards.append(reward)
        }
    }
    func rewards(user: UserID) throws -> [RewardEntry] { state.withLock { $0.rewards.filter { $0.userID == user } } }

    func insertBadge(_ award: BadgeAward) throws -> Bool {
        state.withLock {
            guard !$0.badges.contains(where: { $0.userID == award.userID && $0.badgeID == award.badgeID }) else { return false }
            $0.badges.append(award)
            return true
        }
    }
    func badges(user: UserID) throws -> [BadgeAward] {
        state.withLock { $0.badges.filter { $0.userID == user }.sorted { ($0.awardedAt, $0.badgeID) < ($1.awardedAt, $1.badgeID) } }
    }
    func recordIngestAnswer(user: UserID, runID: String, answerJSON: String) throws {
        state.withLock { $0.answers[RunnerScopedID(user: user, id: runID)] = answerJSON }
    }
    func ingestAnswer(user: UserID, runID: String) throws -> String? {
        state.withLock { $0.answers[RunnerScopedID(user: user, id: runID)] }
    }

    /// All or nothing: the state is restored when the body throws (single-threaded tests only).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let snapshot = state.withLock { $0 }
        do { return try body() } catch {
            state.withLock { $0 = snapshot }
            throw error
        }
    }
    var rewardCount: Int { state.withLock { $0.rewards.count } }

    // MARK: race holds (record 0550)

    func holdRace(_ hold: RaceHold) throws {
        try state.withLock { s in
            for hour in hold.hours {
                if let holder = s.raceHolds[RunnerHour(user: hold.userID, hour: hour)], holder != hold.raceID {
                    throw RaceHoldConflict(userID: hold.userID, raceID: hold.raceID, holder: holder)
                }
            }
            for hour in hold.hours { s.raceHolds[RunnerHour(user: hold.userID, hour: hour)] = hold.raceID }
        }
    }
    func releaseRaceHold(user: UserID, race: String) throws {
        state.withLock { s in s.raceHolds = s.raceHolds.filter { !($0.key.user == user && $0.value == race) } }
    }
    func releaseRaceHolds(race: String) throws {
        state.withLock { s in s.raceHolds = s.raceHolds.filter { $0.value != race } }
    }
    func raceHolder(user: UserID, hour: Int) throws -> String? {
        state.withLock { $0.raceHolds[RunnerHour(user: user, hour: hour)] }
    }

    // MARK: races

    private func checkRaceWrite() throws { if failRaceWrites.load(ordering: .relaxed) { throw Conflict() } }
    func insertRace(_ race: StoredRace) throws {
        try checkRaceWrite()
        if !creation.withLock({ $0.running && $0.read }) { uncountedInserts.add(1, ordering: .relaxed) }
        try state.withLock {
            guard !$0.races.contains(where: { $0.id == race.id }) else { throw Conflict() }
            $0.races.append(race)
        }
    }
    func cancelRace(id: String, at time: EpochSeconds) throws {
        try checkRaceWrite()
        state.withLock { s in
            if let i = s.races.firstIndex(where: { $0.id == id && $0.cancelledAt == nil }) { s.races[i].cancelledAt = time }
        }
    }
    func activeRaces(startingFrom from: EpochSeconds) throws -> [StoredRace] {
        creation.withLock { if $0.running { $0.read = true } }
        return state.withLock { $0.races.filter { $0.cancelledAt == nil && $0.startTime >= from }
            .sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) } }
    }
    func appendRaceEntry(_ entry: RaceLogEntry) throws {
        try checkRaceWrite()
        try state.withLock {
            guard !$0.raceEntries.contains(where: { $0.raceID == entry.raceID && $0.seq == entry.seq }) else { throw Conflict() }
            $0.raceEntries.append(entry)
        }
    }
    func raceEntries(race: String) throws -> [RaceLogEntry] {
        state.withLock { $0.raceEntries.filter { $0.raceID == race }.sorted { $0.seq < $1.seq } }
    }
    func insertRaceResults(_ results: [StoredRaceResult]) throws {
        try checkRaceWrite()
        try state.withLock { s in
            for r in results where s.raceResults.contains(where: { $0.raceID == r.raceID && $0.userID == r.userID }) { throw Conflict() }
            s.raceResults += results
        }
    }
    func raceResults(race: String) throws -> [StoredRaceResult] {
        state.withLock { $0.raceResults.filter { $0.raceID == race }.sorted { $0.rank < $1.rank } }
    }
    func races(user: UserID) throws -> [StoredRace] {
        state.withLock { s in
            let ids = Set(s.raceEntries.filter { $0.userID == user }.map(\.raceID))
            return s.races.filter { ids.contains($0.id) }.sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
        }
    }
    var raceEntryCount: Int { state.withLock { $0.raceEntries.count } }

    /// Set to have several `RaceService`s share this store's races, as replicas share PostgreSQL.
    let sharedRaces = Atomic<Bool>(false)
    var racesAreShared: Bool { sharedRaces.load(ordering: .relaxed) }
    /// Orders `appendRaceEntry(race:after:_:)` calls, as the race's row lock does on PostgreSQL.
    private let raceLock = Mutex(())

    /// Orders `creatingRace` bodies, as the creation advisory lock does on PostgreSQL.
    private let creationLock = Mutex(())
    /// Whether a `creatingRace` body runs, and whether it has read the active races yet.
    private let creation = Mutex((running: false, read: false))
    /// Races inserted other than after a read of the active races in the same `creatingRace`
    /// step: each is a creation whose count could miss another daemon's (shared races).
    let uncountedInserts = Atomic<Int>(0)
    func creatingRace<T>(_ body: () throws -> T) throws -> T {
        try creationLock.withLock { _ in
            creation.withLock { $0 = (running: true, read: false) }
            defer { creation.withLock { $0 = (running: false, read: false) } }
            return try body()
        }
    }

    func race(id: String) throws -> StoredRace? { state.withLock { $0.races.first { $0.id == id } } }
    func raceTail(race: String, after seq: Int) throws -> RaceLogTail? {
        state.withLock { s in
            guard let stored = s.races.first(where: { $0.id == race }) else { return nil }
            return RaceLogTail(cancelled: stored.cancelledAt != nil,
                               entries: s.raceEntries.filter { $0.raceID == race && $0.seq > seq }.sorted { $0.seq < $1.seq })
        }
    }
    @discardableResult
    func appendRaceEntry(race: String, after seq: Int, _ build: (RaceLogTail) throws -> RaceLogEntry?) throws -> Bool {
        try raceLock.withLock { _ in
            guard let tail = try raceTail(race: race, after: seq) else { throw Conflict() }
            guard let entry = try build(tail) else { return false }
            try appendRaceEntry(entry)
            return true
        }
    }
}
