import RunusCore
import Features
import Missions

extension CandidateGenerator {
    /// Multiples of the endurance for early-bird, night-owl and loop distances (record 0641).
    static let clockDistanceLadder: [Double] = [0.6, 0.8, 1.0, 1.2, 1.4]
    /// Start limits around the usual start hour, hours: early birds start before usual + offset,
    /// night owls from usual + offset (negative offsets ask for a later or earlier start).
    static let earlyBirdOffsets: [Double] = [-2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5]
    static let nightOwlOffsets: [Double] = [-1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5]
    /// Early-bird limits stay within 05:00–10:00, night-owl limits within 18:00–23:00 (minutes).
    static let earlyBirdRange: ClosedRange<Int> = 300...600
    static let nightOwlRange: ClosedRange<Int> = 1080...1380
    /// Finish-to-start gaps of loop candidates, metres.
    static let gapLadder: [Meters] = [50, 100, 200]
    /// Rep distances (metres) and their rep counts, and the rest allowed for each, seconds.
    static let intervalSessions: [(rep: Meters, reps: [Int], rest: Seconds)] = [
        (400, [4, 6, 8, 10], 90), (800, [3, 4, 6], 120), (1000, [3, 4, 5], 150),
    ]
    /// Multiples of the expected pace over the rep distance for rep paces (< 1 is faster).
    static let repPaceLadder: [Double] = [0.8, 0.84, 0.88, 0.92, 0.96, 1.0]
    /// Fartlek surges and their shortest durations, seconds.
    static let surgeCounts: [Int] = [4, 6, 8, 10, 12]
    static let surgeSeconds: [Seconds] = [20, 30, 45, 60, 90]

    /// Early bird, night owl, loop, intervals and fartlek candidates (schema v4; weekly volumes:
    /// `addDayVolumes`, `addWeekVolumes`). Clock kinds need a usual start hour (a runner without
    /// runs gets none).
    static func addSchemaV4Kinds(state: RunnerState, _ add: (MissionSpec) -> Void) {
        let endurance = state.enduranceOrDefault
        func km(_ m: Meters) -> Meters { max(1000, (m / 500).rounded() * 500) }
        func halfHour(_ hours: Double) -> Int { Int(saturating: (hours * 2).rounded()) * 30 }
        if let usual = state.usualStartHour {
            for offset in earlyBirdOffsets {
                let minute = halfHour(usual + offset)
                guard earlyBirdRange.contains(minute) else { continue }
                for f in clockDistanceLadder { add(.earlyBird(beforeMinute: minute, minDistance: km(endurance * f))) }
            }
            for offset in nightOwlOffsets {
                let minute = halfHour(usual + offset)
                guard nightOwlRange.contains(minute) else { continue }
                for f in clockDistanceLadder { add(.nightOwl(afterMinute: minute, minDistance: km(endurance * f))) }
            }
        }
        for f in clockDistanceLadder + [1.6] {
            for gap in gapLadder { add(.loop(maxGap: gap, minDistance: km(endurance * f))) }
        }
        for session in intervalSessions {
            let expected = state.expectedPace(over: session.rep)
            for reps in session.reps {
                for p in repPaceLadder {
                    add(.intervals(reps: reps, repDistance: session.rep, maxPace: (expected * p).rounded(),
                                   maxRecovery: session.rest))
                }
            }
        }
        for n in surgeCounts {
            for seconds in surgeSeconds { add(.fartlek(surges: n, minSurge: seconds)) }
        }
    }

    /// One-day weekly volumes: the week's distance so far plus what today's run would add
    /// (`distanceLadder`), so that today's run can complete it (the kind the model learnt, record
    /// 0641; the daily policy offers `addWeekVolumes` instead, record 0655).
    static func addDayVolumes(state: RunnerState, _ add: (MissionSpec) -> Void) {
        let endurance = state.enduranceOrDefault
        for f in distanceLadder {
            let total = ((state.volumeThisWeek + endurance * f) / 500).rounded() * 500
            add(.weeklyVolume(distance: max(1000, total)))
        }
    }
}
