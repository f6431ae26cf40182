import Synchronization
import RunusCore

/// A store in memory, implementing the protocols exactly as documented (test double).
final class InMemoryStore: EngineStore {
    private struct State {
        var users: [UserID: UserProfile] = [:]
        var runs: [String: RunRecord] = [:]
        var assignments: [MissionAssignment] = []
        var rewards: [RewardEntry] = []
        var badges: [BadgeAward] = []
        var answers: [String: String] = [:]
    }
    private let state = Mutex(State())

    func upsertUser(_ profile: UserProfile) throws { state.withLock { $0.users[profile.id] = profile } }
    func user(id: UserID) throws -> UserProfile? { state.withLock { $0.users[id] } }
    func allUsers() throws -> [UserProfile] { state.withLock { $0.users.values.sorted { $0.id < $1.id } } }

    func insertRun(_ run: RunRecord) throws -> Bool {
        state.withLock {
            guard $0.runs[run.id] == nil else { return false }
            $0.runs[run.id] = run
            return true
        }
    }
    func run(id: String) throws -> RunRecord? { state.withLock { $0.runs[id] } }
    func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord] {
        state.withLock {
            $0.runs.values.filter { $0.userID == user && $0.startTime >= from && $0.startTime < to }
                .sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
                .map { var r = $0; r.track = nil; return r }
        }
    }

    func insertAssignment(_ assignment: MissionAssignment) throws { state.withLock { $0.assignments.append(assignment) } }
    func updateAssignment(id: String, status: MissionStatus, runID: String?, progress: Double?) throws {
        state.withLock {
            guard let i = $0.assignments.firstIndex(where: { $0.id == id }) else { return }
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

    func insertReward(_ reward: RewardEntry) throws { state.withLock { $0.rewards.append(reward) } }
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
    func recordIngestAnswer(runID: String, answerJSON: String) throws { state.withLock { $0.answers[runID] = answerJSON } }
    func ingestAnswer(runID: String) throws -> String? { state.withLock { $0.answers[runID] } }

    /// All or nothing: the state is restored when the body throws (single-threaded tests only).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let snapshot = state.withLock { $0 }
        do { return try body() } catch {
            state.withLock { $0 = snapshot }
            throw error
        }
    }
    var rewardCount: Int { state.withLock { $0.rewards.count } }
}
