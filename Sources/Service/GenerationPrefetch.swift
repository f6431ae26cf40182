import RunusCore
import Server

/// The users' generations one connection-loop round read for the requests it is answering
/// (record 0545), bound while they are answered.
struct GenerationSnapshot: Sendable {
    let generations: [ExactText: Int64]

    /// The snapshot of the round being answered on this thread; nil outside one.
    @TaskLocal static var current: GenerationSnapshot?
}

/// Reads, in one query per loop round, the generations of the users of the round's
/// `missions.today` lines, so that each cached answer costs no round trip of its own on a
/// shared database (record 0545). Installed only on a daemon with replicas.
struct GenerationPrefetch: RoundPreparation {
    let store: any GenerationStore
    /// Lines longer than this are not looked into (a missions.today line is well under it).
    let maximumLineBytes = 4096
    /// The operations whose answers check the user's generation first.
    static let operations: Set<String> = ["missions.today"]

    func prepare(lines: [[UInt8]], answer: () -> Void) {
        var users: [UserID] = []
        var seen = Set<ExactText>()
        for line in lines {
            let peek = RequestPeek(line)
            guard let op = peek.op, Self.operations.contains(op), let user = peek.user,
                  seen.insert(ExactText(user)).inserted else { continue }
            users.append(user)
        }
        // One request alone reads its own, as it would have without a round.
        guard users.count > 1 else { return answer() }
        // A failed read (the database is away) leaves each request to read, and fail, alone.
        guard let read = try? store.generations(of: users), read.count == users.count else { return answer() }
        var generations = [ExactText: Int64](minimumCapacity: users.count)
        for (user, generation) in zip(users, read) { generations[ExactText(user)] = generation }
        GenerationSnapshot.$current.withValue(GenerationSnapshot(generations: generations), operation: answer)
    }
}
