import RunusCore
import Tracking

extension MissionEvaluator {
    /// Intervals on the distance profile (records 0211, 0217). A rep is a stretch of the accepted
    /// rep distance covered within the time its pace limit allows; reps chain while each rest
    /// (end of one to start of the next, elapsed) stays within the recovery limit. The longest
    /// chain counts (`RepChain`: dynamic programming over the fixes), each of its reps the
    /// window whose slower half is fastest among those that keep it that long.
    static func checkIntervals(reps: Int, repDistance: Meters, maxPace: SecondsPerKm, maxRecovery: Seconds,
                               metrics: RunMetrics, tolerance: MissionTolerance, _ v: inout Verdict) {
        let length = repDistance * tolerance.distanceFraction
        let limit = (maxPace + tolerance.paceSlack) * length / 1000
        let chain = RepChain.longest(distances: metrics.profile.distances, times: metrics.profile.times, length: length,
                                     limit: limit, maxRest: maxRecovery * tolerance.recoveryFactor, cap: reps)
        let best = chain.reps
        v.count = MissionCount(done: min(best.count, reps), target: reps, unit: "reps")
        var rests: [String] = []
        for (index, rep) in best.enumerated() {
            let pace = (rep.end - rep.start) / (length / 1000)
            v.details.append(MissionEvidence(.rep, index: index + 1, from: rep.from, to: rep.to, value: pace,
                                             unit: "s/km", passed: true))
            if index > 0 { rests.append(DistanceFormat.duration(rep.start - best[index - 1].end)) }
        }
        let paces = best.map { Pace.format(($0.end - $0.start) / (length / 1000)) }.joined(separator: ", ")
        var sentence = "\(best.count) of \(reps) reps of \(Int(saturating: length.rounded())) m at \(Pace.format(maxPace))/km or faster"
        if !best.isEmpty { sentence += " (\(paces)/km" + (rests.isEmpty ? ")" : "; rests \(rests.joined(separator: ", ")))") }
        if let rest = chain.restBeyondLimit {
            sentence += "; a rest of \(DistanceFormat.duration(rest)) over the \(DistanceFormat.duration(maxRecovery)) limit restarted the count"
        }
        v.add(Double(best.count) / Double(reps), sentence)
    }

    /// Fartlek (record 0212): speed is the distance profile's slope over a centred 10 s window,
    /// sampled every second. A surge is a stretch above 1.10 × the run's moving average speed that
    /// reaches 1.15 × somewhere (hysteresis, so noise does not split one surge in two or make one).
    /// Surges lasting at least the asked time (minus the slack) count. O(n + duration in s).
    static func checkFartlek(surges: Int, minSurge: Seconds, metrics: RunMetrics, tolerance: MissionTolerance,
                             _ v: inout Verdict) {
        let found = FartlekDetector.surges(in: metrics.profile, averageSpeed: metrics.moving > 0 ? metrics.distance / metrics.moving : 0,
                                           minDuration: max(0, minSurge - tolerance.surgeSlack))
        v.count = MissionCount(done: min(found.count, surges), target: surges, unit: "surges")
        for (index, s) in found.enumerated() {
            v.details.append(MissionEvidence(.surge, index: index + 1, from: s.from, to: s.to, value: s.duration,
                                             unit: "s", passed: true))
        }
        let list = found.prefix(8).map { "\(Int(saturating: $0.duration.rounded())) s" }.joined(separator: ", ")
        v.add(Double(found.count) / Double(surges),
              "\(found.count) of \(surges) surges of \(Int(saturating: minSurge.rounded())) s or more well above your average speed"
                + (found.isEmpty ? "" : " (\(list)\(found.count > 8 ? ", …" : ""))"))
    }
}

/// Surge detection on a distance profile (record 0212).
enum FartlekDetector {
    /// Speed ratio to the run's moving average that starts a surge, and the one that ends it.
    static let startRatio = 1.15
    static let endRatio = 1.10
    /// Width of the centred speed window, seconds.
    static let window: Seconds = 10

    struct Surge { let from: Meters; let to: Meters; let duration: Seconds }

    static func surges(in profile: DistanceProfile, averageSpeed: Double, minDuration: Seconds) -> [Surge] {
        let t = profile.times, d = profile.distances
        guard t.count >= 2, averageSpeed > 0 else { return [] }
        let t0 = t[0], t1 = t[t.count - 1]
        // No run lasts longer than a stored run may: a garbage clock (1e23 s, where a second no
        // longer changes the time) would make the walk endless (found by the file fuzzer).
        guard t1 - t0 <= RunRecord.maximumStoredElapsed else { return [] }
        // Monotone interpolation: each cursor only moves forward, so sampling is O(n + seconds
        // moving), the seconds of gaps skipped (below).
        var cursorLow = 0, cursorHigh = 0
        func distance(at time: EpochSeconds, _ cursor: inout Int) -> Meters {
            if time <= t0 { return d[0] }
            if time >= t1 { return d[d.count - 1] }
            while t[cursor + 1] < time { cursor += 1 }
            let w = (time - t[cursor]) / (t[cursor + 1] - t[cursor])
            return d[cursor] + w * (d[cursor + 1] - d[cursor])
        }
        var out: [Surge] = []
        var inSurge = false
        var start: EpochSeconds = 0
        // A surge is timed between crossings of the lower (end) ratio, so both edges are measured
        // alike: it starts where the speed last rose through 1.10 × before reaching 1.15 ×.
        var aboveLowSince: EpochSeconds? = nil
        let half = window / 2
        // Seconds are counted, not accumulated: at 2^53 s (a file's pathological clock) adding
        // 1 to the time no longer changes it, and the walk would never end.
        var second = 0
        var time = t0
        while time <= t1 {
            let a = max(t0, time - half), b = min(t1, time + half)
            let speed = b > a ? (distance(at: b, &cursorHigh) - distance(at: a, &cursorLow)) / (b - a) : 0
            let ratio = speed / averageSpeed
            if ratio >= endRatio { if aboveLowSince == nil { aboveLowSince = time } } else { aboveLowSince = nil }
            if !inSurge && ratio >= startRatio {
                inSurge = true; start = aboveLowSince ?? time
            } else if inSurge && (ratio < endRatio || time + 1 > t1) {
                inSurge = false
                if time - start >= minDuration {
                    out.append(Surge(from: profile.distance(atTime: start), to: profile.distance(atTime: time), duration: time - start))
                }
            }
            // A whole window inside one step between fixes (a gap) has the step's speed until its
            // leading edge reaches the next fix: the ratio, and so every decision above, stays as
            // it is, so skip to the last such second. Without this a fix at t = 1e11 after a run
            // was 1e11 iterations (found by the fuzzing campaign, record 0212).
            if a == time - half, b == time + half, cursorLow + 1 < t.count, t[cursorLow] <= a, b <= t[cursorLow + 1] {
                let last = Int(saturating: (t[cursorLow + 1] - half - t0).rounded(.down))
                if last > second { second = last }
            }
            second += 1
            time = t0 + Double(second)
        }
        return out
    }
}
