import RunusCore
import Tracking

/// Volume no human runs (record 0233): a run is not rewarded when, with the runner's rewarded
/// runs around it, some day or week would hold more distance than the world's best have ever
/// run in one. Each run is plausible on its own; together they are not (issue 55: 300
/// back-to-back 10 km summaries claimed 3,000 km in 5.7 days).
extension PlausibilityRules {
    /// One volume window: its length and the most distance on foot any human has covered in it.
    public struct VolumeBound: Sendable, Equatable {
        /// Seconds, > 0.
        public var window: Seconds
        /// Metres, > 0.
        public var distance: Meters
        /// The window's name in the runner's sentence ("24 hours").
        public var name: String

        public init(window: Seconds, distance: Meters, name: String) {
            self.window = window; self.distance = distance; self.name = name
        }
    }

    /// 24 h: 320 km (the 24-hour road record is 319.6 km, 2022); 7 days: 1,100 km (the six-day
    /// record is 1,036.8 km, 1984, and a seventh day adds little after six).
    public static let volumeBounds: [VolumeBound] = [
        VolumeBound(window: 86_400, distance: 320_000, name: "24 hours"),
        VolumeBound(window: 7 * 86_400, distance: 1_100_000, name: "7 days"),
    ]

    /// The longest window of `volumeBounds`, seconds: how far around a run `volumeVerdict` reads.
    public static var volumeReach: Seconds { volumeBounds.map(\.window).max() ?? 0 }

    /// Nil when `run` keeps every window of `bounds` within its distance together with `others`
    /// (the runner's other runs starting within `volumeReach` of it, any order); else the reason
    /// code `over_volume` and a sentence for the runner. Runs count by their start time and only
    /// when rewarded: an unrewarded run already earns nothing. Of all windows holding `run`,
    /// those starting at a run's start are the fullest, so only they are summed.
    public static func volumeVerdict(of run: RunRecord, among others: [RunRecord],
                                     bounds: [VolumeBound] = volumeBounds) -> (code: String, sentence: String)? {
        let counted = others.filter { $0.rewarded && $0.id != run.id && $0.distance.isFinite && $0.distance > 0 }
            .sorted { $0.startTime < $1.startTime }
        // prefix[k]: distance of counted[0..<k]; sums over start ranges by binary search, so a
        // week of many short runs costs n log n, not n².
        var prefix: [Meters] = [0]
        prefix.reserveCapacity(counted.count + 1)
        for r in counted { prefix.append(prefix[prefix.count - 1] + r.distance) }
        func firstIndex(startingAtOrAfter t: EpochSeconds) -> Int {
            var low = 0, high = counted.count
            while low < high {
                let mid = (low + high) / 2
                if counted[mid].startTime < t { low = mid + 1 } else { high = mid }
            }
            return low
        }
        for bound in bounds {
            let earliest = run.startTime - bound.window
            let candidates = counted.map(\.startTime).filter { $0 > earliest && $0 <= run.startTime } + [run.startTime]
            for from in candidates {
                let inWindow = prefix[firstIndex(startingAtOrAfter: from + bound.window)] - prefix[firstIndex(startingAtOrAfter: from)]
                let total = inWindow + run.distance
                if total > bound.distance {
                    return (UnrewardedReason.overVolume,
                            "With your other runs this one makes \(DistanceFormat.kilometres(total)) in \(bound.name); "
                                + "nobody has run more than \(DistanceFormat.kilometres(bound.distance)) in \(bound.name), "
                                + "so it is in your history but earns nothing.")
                }
            }
        }
        return nil
    }
}
