import RunusCore

/// A runner's state as of an instant, computed only from runs that started strictly before it.
/// Adding runs at or after `asOf` never changes it.
public struct RunnerState: Sendable, Equatable {
    /// The instant the state describes (Unix seconds).
    public let asOf: EpochSeconds
    /// Number of runs in the 28 days before `asOf`.
    public let runs28d: Int
    /// Distance run in the 7 and 28 days before `asOf`, metres.
    public let volume7d: Meters
    public let volume28d: Meters
    /// Longest run in the 28 days before `asOf`, metres (0 without runs).
    public let longest28d: Meters
    /// Days since the last run started (fractional), nil without history.
    public let daysSinceLastRun: Double?
    /// Exponentially weighted mean of all past run distances, newest weighted 0.15, metres;
    /// nil without history. The distance the runner currently runs comfortably.
    public let endurance: Meters?
    /// Median moving pace of the last 10 runs, s/km; nil without history.
    public let typicalPace: SecondsPerKm?
    /// Number of runs before `asOf`.
    public let totalRuns: Int

    /// Weight of the newest run in `endurance`.
    public static let enduranceWeight = 0.15
    /// Runs that enter `typicalPace`.
    public static let paceWindow = 10

    /// Endurance assumed for a runner without history, metres (a beginner's 4 km).
    public static let defaultEndurance: Meters = 4000
    /// Pace assumed for a runner without history, s/km (7:00/km).
    public static let defaultPace: SecondsPerKm = 420

    /// Builds the state from `history` (any order; runs at or after `asOf` are ignored).
    public init(history: [RunRecord], asOf: EpochSeconds) {
        self.asOf = asOf
        let past = history.filter { $0.startTime < asOf }.sorted {
            ($0.startTime, $0.id) < ($1.startTime, $1.id)
        }
        totalRuns = past.count
        var runs28 = 0, v7 = 0.0, v28 = 0.0, longest = 0.0
        var ewma: Meters?
        for run in past {
            let age = asOf - run.startTime
            if age <= 28 * 86_400 {
                runs28 += 1; v28 += run.distance; longest = max(longest, run.distance)
                if age <= 7 * 86_400 { v7 += run.distance }
            }
            ewma = ewma.map { (1 - Self.enduranceWeight) * $0 + Self.enduranceWeight * run.distance } ?? run.distance
        }
        runs28d = runs28; volume7d = v7; volume28d = v28; longest28d = longest
        endurance = ewma
        daysSinceLastRun = past.last.map { (asOf - $0.startTime) / 86_400 }
        let paces = past.suffix(Self.paceWindow).compactMap(\.movingPace).sorted()
        if paces.isEmpty {
            typicalPace = nil
        } else {
            let mid = paces.count / 2
            typicalPace = paces.count % 2 == 1 ? paces[mid] : (paces[mid - 1] + paces[mid]) / 2
        }
    }

    /// Endurance, or the beginner default without history.
    public var enduranceOrDefault: Meters { endurance ?? Self.defaultEndurance }
    /// Typical pace, or the beginner default without history.
    public var typicalPaceOrDefault: SecondsPerKm { typicalPace ?? Self.defaultPace }

    /// Acute:chronic load ratio: last 7 days' volume over the weekly mean of the last 28 days,
    /// in [0, 4]; 1 when the runner has no volume in 28 days.
    public var acuteChronicRatio: Double {
        volume28d > 0 ? min(4, volume7d / (volume28d / 4)) : 1
    }

    /// Expected moving pace over `distance`, s/km: the typical pace scaled from the endurance
    /// distance with Riegel's exponent (pace ∝ distance^0.06).
    public func expectedPace(over distance: Meters) -> SecondsPerKm {
        typicalPaceOrDefault * pow(max(distance, 400) / enduranceOrDefault, 0.06)
    }
}

#if canImport(Glibc)
import Glibc
#endif
