import Testing
import RunusCore
import Tracking
@testable import Missions

/// Missions checked on runs without positions or splits (record 0232): a summary, and a
/// treadmill run measured by its device's readings alone (record 0116).
@Suite("missions on summaries and runs without positions")
struct SummaryMissionTests {
    static let start: EpochSeconds = 1_780_000_000
    /// 10 km in 50 min (moving 48 min: 4:48/km), average heart rate 150.
    static let summary = MissionRun(metrics: RunMetrics(summary: RunSummary(startTime: start, distance: 10_000, duration: 3000,
                                                                          moving: 2880, averageHeartRate: 150)))

    static func verdict(_ spec: MissionSpec, _ run: MissionRun = summary) -> MissionEvaluation {
        MissionEvaluator.evaluate(spec, run: run, context: MissionContext(utcOffset: 0))
    }

    @Test("totals decide distance, duration and the clock kinds, as for a tracked run")
    func totals() {
        #expect(Self.verdict(.distance(minDistance: 10_000)).status == .completed)
        #expect(Self.verdict(.distance(minDistance: 12_000)).status == .failed)
        #expect(Self.verdict(.duration(minDuration: 2700)).status == .completed)
        #expect(Self.verdict(.earlyBird(beforeMinute: 24 * 60 - 1, minDistance: 5000)).cannotCheck == nil)
        #expect(Self.verdict(.recovery(minPace: 270, minDuration: 1800, maxHeartRate: 155)).status == .completed)
        for spec in [MissionSpec.distance(minDistance: 5000), .duration(minDuration: 600)] {
            #expect(Self.verdict(spec).cannotCheck == nil)
        }
    }

    @Test("pace and distance in time complete on the whole run, fail when too short, else cannot be checked")
    func wholeRunSuffices() {
        #expect(Self.verdict(.pace(maxPace: 300, minDistance: 5000)).status == .completed)
        #expect(Self.verdict(.pace(maxPace: 300, minDistance: 15_000)).status == .failed)
        let slow = Self.verdict(.pace(maxPace: 240, minDistance: 5000))
        #expect(slow.status == .notApplicable && slow.cannotCheck?.contains("without splits") == true, "\(slow.evidence)")
        #expect(Self.verdict(.distanceInTime(distance: 10_000, maxDuration: 3100)).status == .completed)
        #expect(Self.verdict(.distanceInTime(distance: 20_000, maxDuration: 3100)).status == .failed)
        #expect(Self.verdict(.distanceInTime(distance: 5000, maxDuration: 1300)).cannotCheck != nil)
    }

    @Test("kinds that need splits, positions or heights say why they cannot be checked",
          arguments: [MissionSpec.negativeSplit(minDistance: 5000), .evenPace(minDistance: 5000, maxSpread: 10), .progression(kilometres: 4),
                      .intervals(reps: 5, repDistance: 400, maxPace: 270, maxRecovery: 120), .fartlek(surges: 6, minSurge: 30),
                      .hills(minAscent: 100), .loop(maxGap: 100, minDistance: 3000), .explorer(minNewFraction: 0.3, minDistance: 3000)])
    func cannotCheck(_ spec: MissionSpec) {
        let v = Self.verdict(spec)
        #expect(v.status == .notApplicable && v.progress == 0 && v.cannotCheck != nil && v.evidence == [v.cannotCheck ?? ""])
    }

    @Test("a treadmill run has splits: split kinds are decided; hills, loop and explorer cannot be checked")
    func treadmill() {
        // 6 km at 3 m/s then 3.2 m/s: a negative split.
        var readings: [DistanceSample] = []
        for s in 0...1940 {
            let d: Double = s <= 1000 ? 3 * Double(s) : 3000 + 3.2 * Double(s - 1000)
            readings.append(DistanceSample(time: Self.start + Double(s), distance: d))
        }
        let run = MissionRun(track: Track(points: [], deviceDistances: readings),
                             metrics: RunMetrics(track: Track(points: [], deviceDistances: readings)))
        #expect(!run.hasPositions && run.metrics.distanceSource == .device)
        #expect(Self.verdict(.negativeSplit(minDistance: 5000), run).status == .completed)
        for spec in [MissionSpec.hills(minAscent: 50), .loop(maxGap: 100, minDistance: 3000), .explorer(minNewFraction: 0.3, minDistance: 3000)] {
            let v = Self.verdict(spec, run)
            #expect(v.status == .notApplicable && v.cannotCheck != nil, "\(spec.kind)")
        }
    }
}
