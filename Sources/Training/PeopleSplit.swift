import RunusCore
import Features

/// Runners held out as whole people (docs/decisions/0630): every runner is ranked by a seeded
/// 64-bit hash of their id, and the ranking decides the side. A group split holds out the first
/// ⌈share · n⌉ ranked runners (at least 1, at most n − 1); k folds give the runner of rank r to
/// fold r mod k, so every runner is in exactly one fold and fold sizes differ by at most one.
/// No key is built by joining strings: the hash reads the seed's 8 bytes, the id's length's 8
/// bytes, then the id's UTF-8 bytes.
public struct PeopleSplit: Sendable {
    /// The runners of `examples`, ranked: ascending hash, ties (practically never) by id.
    public let ranked: [UserID]
    /// Fold of every runner, 0..<folds.
    public let foldOf: [UserID: Int]
    public let folds: Int

    /// FNV-1a 64 over (seed, id length, id bytes), then the SplitMix64 finaliser (FNV-1a's low
    /// bits barely move for ids that differ only in their last byte).
    public static func hash(_ id: UserID, seed: Int) -> UInt64 {
        var h = FNV1a()
        h.add(littleEndian: UInt64(bitPattern: Int64(seed)))
        h.add(littleEndian: UInt64(id.utf8.count))
        h.add(bytes: id.utf8)
        var z = h.value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The runners of `users` (repeats ignored) ranked by `hash(_:seed:)`.
    public static func rank(_ users: some Sequence<UserID>, seed: Int) -> [UserID] {
        Set(users).map { ($0, hash($0, seed: seed)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    }

    /// `folds` (>= 2) folds of the runners of `examples`; throws for fewer than 2 folds or fewer
    /// runners than folds.
    public init(_ examples: [LabelledExample], folds: Int, seed: Int) throws {
        guard folds >= 2 else { throw TrainingError.badFolds(folds) }
        let ranked = Self.rank(examples.map(\.userID), seed: seed)
        guard ranked.count >= folds else { throw TrainingError.tooFewRunners(count: ranked.count, needed: folds) }
        self.ranked = ranked
        self.folds = folds
        var foldOf: [UserID: Int] = [:]
        for (r, user) in ranked.enumerated() { foldOf[user] = r % folds }
        self.foldOf = foldOf
    }

    /// The runners of fold `k`, in rank order.
    public func runners(inFold k: Int) -> [UserID] { ranked.filter { foldOf[$0] == k } }

    /// Fold `k`'s examples held out, the others training, both in the input order.
    public func fold(_ k: Int, of examples: [LabelledExample]) -> (train: [LabelledExample], heldOut: [LabelledExample]) {
        var train: [LabelledExample] = [], heldOut: [LabelledExample] = []
        for e in examples { if foldOf[e.userID] == k { heldOut.append(e) } else { train.append(e) } }
        return (train, heldOut)
    }

    /// A group split of `examples`: the first ⌈share · n⌉ runners by hash held out (clamped to
    /// 1...n − 1), the rest training, both in the input order. Throws for fewer than 2 runners or
    /// a share outside (0, 1).
    public static func holdOut(_ examples: [LabelledExample], share: Double, seed: Int) throws
        -> (train: [LabelledExample], heldOut: [LabelledExample], heldOutRunners: Set<UserID>) {
        guard share > 0, share < 1 else { throw TrainingError.badHeldOutShare(share) }
        let ranked = rank(examples.map(\.userID), seed: seed)
        guard ranked.count >= 2 else { throw TrainingError.tooFewRunners(count: ranked.count, needed: 2) }
        var count = Int(saturating: (share * Double(ranked.count)).rounded(.up))
        count = min(max(count, 1), ranked.count - 1)
        let held = Set(ranked.prefix(count))
        var train: [LabelledExample] = [], heldOut: [LabelledExample] = []
        for e in examples { if held.contains(e.userID) { heldOut.append(e) } else { train.append(e) } }
        return (train, heldOut, held)
    }
}
