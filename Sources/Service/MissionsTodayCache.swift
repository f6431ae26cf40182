import RunusCore
import Engine
import Features
import Server

/// What the daemon keeps in memory between `missions.today` requests, per user (decision 0520):
/// the profile, the runner states as of the start of recent local days, and whole answers keyed
/// by everything an answer depends on. One per daemon, shared by the routers of successive
/// model reloads (the model version is part of an answer's key).
///
/// With other daemons on the database (PostgreSQL replicas, record 0541) every read of a user's
/// entries first compares the user's generation in the database (changed by triggers at every
/// write to their profile, runs or missions, by any daemon) with the one the entries were kept
/// at, and forgets them when it moved: an answer another daemon made stale is never served.
///
/// On a connection-loop round that read several requests, the generations of their users were
/// read in one query before they were answered (`GenerationPrefetch`, record 0545): a request
/// of that round uses that reading, made after it arrived, instead of a read of its own.
///
/// Users are told apart by their ids' bytes (`ExactText`), as the store tells them apart.
///
/// Invalidation rules (for this daemon's own writes):
/// - `users.upsert`, `runs.ingest` (also when it fails), `missions.today` with `refresh` and every
///   other operation that writes a user's runs, assignments or profile: all of the user's
///   answers and its profile go; its states go when the ingested run starts before their as-of
///   instant (a state as of t depends only on runs before t), all of them when that is unknown;
/// - a model reload drops everything (so a reload also picks up out-of-process writes).
/// Invalidation comes after the write commits; `AnswerCache` refuses a value computed from a
/// read that the invalidation may have overtaken.
final class MissionsTodayCache: RunnerStateCache, Sendable {
    enum Key: Hashable, Sendable {
        case profile
        /// State as of this instant, Unix seconds.
        case state(asOf: EpochSeconds)
        /// `utcOffset` in seconds; `count` missions.
        case answer(day: CivilDate, utcOffset: Int, count: Int, modelVersion: String)
        /// The user's generation the entries were kept at.
        case generation
    }

    enum Value: Sendable {
        case profile(UserProfile)
        case state(RunnerState)
        /// The `result` value as the answer line carries it.
        case answer(EncodedJSON)
        case generation(Int64)
    }

    let entries: AnswerCache<ExactText, Key, Value>
    /// Digests of stored tracks the states read (best efforts, covered cells: record 0645), kept
    /// across model reloads: a stored run's digest never changes.
    let digests = RunDigestCache()
    /// The user's generation in a shared database; nil when only this daemon writes it.
    private let generation: @Sendable (UserID) throws -> Int64?

    /// - Parameter maximumUsers: users kept (profile, states, answers), LRU beyond; >= 64.
    init(maximumUsers: Int = 100_000, generation: @escaping @Sendable (UserID) throws -> Int64? = { _ in nil }) {
        entries = AnswerCache(maximumGroups: maximumUsers, maximumValuesPerGroup: 17, shardCount: 64)
        self.generation = generation
    }

    /// Forgets `user`'s entries when another daemon wrote their rows since they were kept (or
    /// when the generation cannot be read: then nothing kept is trusted).
    func checkGeneration(user: UserID) {
        let group = ExactText(user)
        let current: Int64?
        do {
            current = try GenerationSnapshot.current?.generations[group] ?? generation(user)
        } catch {
            entries.invalidate(group)
            return
        }
        guard let current else { return }
        let (value, _) = entries.lookup(group, .generation)
        if case .generation(let known)? = value, known == current { return }
        entries.invalidate(group)
        let (_, ticket) = entries.lookup(group, .generation)
        entries.store(group, .generation, .generation(current), ticket: ticket)
    }

    func state(user: UserID, asOf: EpochSeconds, build: () throws -> RunnerState) throws -> RunnerState {
        checkGeneration(user: user)
        let (value, ticket) = entries.lookup(ExactText(user), .state(asOf: asOf))
        if case .state(let state)? = value { return state }
        let state = try build()
        entries.store(ExactText(user), .state(asOf: asOf), .state(state), ticket: ticket)
        return state
    }

    /// The user's profile, read from `store` on a miss; nil for an unknown user (not kept).
    func profile(_ user: UserID, store: any EngineStore) throws -> UserProfile? {
        checkGeneration(user: user)
        let (value, ticket) = entries.lookup(ExactText(user), .profile)
        if case .profile(let profile)? = value { return profile }
        guard let profile = try store.user(id: user) else { return nil }
        entries.store(ExactText(user), .profile, .profile(profile), ticket: ticket)
        return profile
    }

    /// After a write to `user`'s profile or missions.
    func invalidate(user: UserID) {
        entries.invalidate(ExactText(user))
    }

    /// After a write of a run of `user` that starts at `runStart` (Unix seconds; nil: unknown).
    func invalidate(user: UserID, runStart: EpochSeconds?) {
        entries.invalidate(ExactText(user)) { key in
            if case .state(let asOf) = key, let runStart { return runStart < asOf }
            return true
        }
    }

    /// After a model reload.
    func invalidateAll() { entries.invalidateAll() }
}
