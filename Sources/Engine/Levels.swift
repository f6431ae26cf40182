/// XP and levels (docs/decisions/0007-xp-levels-badges.md).
///
/// Reaching level n takes T(n) = 50·n·(n − 1) XP in total: level 2 at 100 XP, 3 at 300,
/// 4 at 600, 10 at 4,500, 20 at 19,000. Each level costs 100 XP more than the one before, so a
/// runner who runs 20 km a week (≈ 200 XP from distance plus missions) levels up every week or
/// two at first and every couple of months by level 20.
public enum Levels {
    /// XP per kilometre run (vehicle parts excluded): 1 XP per 100 m.
    public static let xpPerKilometre = 10.0

    /// Total XP needed to reach `level` (≥ 1).
    public static func threshold(of level: Int) -> Int {
        precondition(level >= 1, "levels start at 1")
        return 50 * level * (level - 1)
    }

    /// The level a runner with `xp` total XP (≥ 0) has.
    public static func level(for xp: Int) -> Int {
        var level = 1
        while threshold(of: level + 1) <= xp { level += 1 }
        return level
    }

    /// XP for a run of `distance` metres.
    public static func runXP(distance: Double) -> Int {
        max(0, Int(saturating: (distance / 1000 * xpPerKilometre).rounded()))
    }
}

/// A runner's XP and level.
public struct LevelStatus: Sendable, Equatable {
    public let xp: Int
    public let level: Int
    /// XP still needed for the next level.
    public let xpToNextLevel: Int
    /// Total XP at which the current level started and the next one starts.
    public let levelStartXP: Int
    public let nextLevelXP: Int

    public init(xp: Int) {
        self.xp = xp
        level = Levels.level(for: xp)
        levelStartXP = Levels.threshold(of: level)
        nextLevelXP = Levels.threshold(of: level + 1)
        xpToNextLevel = nextLevelXP - xp
    }
}
