import RunusCore

extension MissionKind {
    /// A sensible default mission of this kind: the example shown by `runus mission kinds`, and
    /// the mission of the real-data sanity table (record 0210).
    public var example: MissionSpec {
        switch self {
        case .distance: return .distance(minDistance: 5000)
        case .duration: return .duration(minDuration: 1800)
        case .pace: return .pace(maxPace: 330, minDistance: 5000)
        case .negativeSplit: return .negativeSplit(minDistance: 5000)
        case .distanceInTime: return .distanceInTime(distance: 5000, maxDuration: 1650)
        case .evenPace: return .evenPace(minDistance: 5000, maxSpread: 15)
        case .progression: return .progression(kilometres: 3)
        case .intervals: return .intervals(reps: 4, repDistance: 400, maxPace: 270, maxRecovery: 180)
        case .fartlek: return .fartlek(surges: 4, minSurge: 30)
        case .hills: return .hills(minAscent: 100)
        case .longRun: return .longRun(multiple: 1.1)
        case .earlyBird: return .earlyBird(beforeMinute: 420, minDistance: 3000)
        case .nightOwl: return .nightOwl(afterMinute: 1260, minDistance: 3000)
        case .explorer: return .explorer(minNewFraction: 0.3, minDistance: 3000)
        case .loop: return .loop(maxGap: 100, minDistance: 3000)
        case .streak: return .streak(days: 3)
        case .weeklyVolume: return .weeklyVolume(distance: 20_000)
        case .personalBest: return .personalBest(distance: 5000)
        case .recovery: return .recovery(minPace: 390, minDuration: 1800, maxHeartRate: nil)
        case .raceFinish: return .raceFinish(minDistance: 5000)
        case .podium: return .podium(maxPlace: 3)
        }
    }
}
