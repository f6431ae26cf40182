import Testing
import RunusCore
import Tracking
@testable import Missions

/// Kinds that need the runner's history, clock or a race result, just inside and just outside
/// their boundaries, and `notApplicable` when the context is missing.
@Suite("Multi-run, time-of-day and race mission kinds")
struct HistoryKindTests {
    typealias Leg = SyntheticRun.Leg
    static let offset = 7200   // UTC+2
    static let day: EpochSeconds = 86_400

    func check(_ spec: MissionSpec, _ legs: [Leg], start: EpochSeconds, context: MissionContext) -> MissionEvaluation {
        MissionEvaluator.evaluate(spec, run: SyntheticRun.run(legs, start: start), context: context)
    }

    static func prior(_ start: EpochSeconds, _ distance: Meters, efforts: [Meters: Seconds] = [:]) -> PriorRun {
        PriorRun(start: start, utcOffset: offset, distance: distance, bestEfforts: efforts)
    }

    @Test("long run: 10.9 km passes 1.1 × 10 km (99 % accepted), 10.85 km fails; older runs do not count")
    func longRun() {
        let start = SyntheticRun.instant(hour: 8, minute: 0, utcOffset: Self.offset)
        let context = MissionContext(priorRuns: [Self.prior(start - 10 * Self.day, 10_000),
                                                 Self.prior(start - 29 * Self.day, 20_000),     // outside 28 days
                                                 Self.prior(start + Self.day, 30_000)],          // after: ignored
                                     utcOffset: Self.offset)
        let spec = MissionSpec.longRun(multiple: 1.1)
        #expect(check(spec, [.run(10_900, 360)], start: start, context: context).status == .completed)
        let short = check(spec, [.run(10_850, 360)], start: start, context: context)
        #expect(short.status == .failed)
        #expect(short.evidence[0].contains("10.00 km"))
        #expect(check(spec, [.run(10_900, 360)], start: start, context: .empty).status == .notApplicable)
    }

    @Test("early bird and night owl: local start time with the runner's offset, 03:00 ends the night")
    func timeOfDay() {
        let early = MissionSpec.earlyBird(beforeMinute: 420, minDistance: 3000)
        let owl = MissionSpec.nightOwl(afterMinute: 1260, minDistance: 3000)
        let context = MissionContext(utcOffset: Self.offset)
        func at(_ h: Int, _ m: Int) -> EpochSeconds { SyntheticRun.instant(hour: h, minute: m, utcOffset: Self.offset) }
        let run: [Leg] = [.run(3100, 330)]
        #expect(check(early, run, start: at(6, 59), context: context).status == .completed)
        #expect(check(early, run, start: at(7, 0), context: context).status == .failed)
        #expect(check(early, run, start: at(2, 30), context: context).status == .failed)     // still night
        #expect(check(early, [.run(2900, 330)], start: at(6, 0), context: context).status == .failed)
        #expect(check(owl, run, start: at(21, 0), context: context).status == .completed)
        #expect(check(owl, run, start: at(20, 59), context: context).status == .failed)
        #expect(check(owl, run, start: at(1, 0), context: context).status == .completed)
        // 06:59 local is 04:59 UTC: without the offset there is no verdict.
        #expect(check(early, run, start: at(6, 59), context: .empty).status == .notApplicable)
    }

    @Test("streak: local days with the runs' own offsets; a missed day breaks it")
    func streak() {
        let spec = MissionSpec.streak(days: 3)
        let today = SyntheticRun.instant(hour: 7, minute: 0, utcOffset: Self.offset)
        // 23:30 local two days ago is 21:30 UTC: still that local day.
        let twoDaysAgoLate = SyntheticRun.instant(hour: 23, minute: 30, utcOffset: Self.offset, dayOffset: -2)
        let yesterday = today - Self.day
        let context = MissionContext(priorRuns: [Self.prior(twoDaysAgoLate, 5000), Self.prior(yesterday, 4000)],
                                     utcOffset: Self.offset)
        let done = check(spec, [.run(3000, 330)], start: today, context: context)
        #expect(done.status == .completed && done.count == MissionCount(done: 3, target: 3, unit: "days"))
        #expect(done.details.filter { $0.part == .day }.map { $0.value.rounded() } == [3000, 4000, 5000])
        // Nothing two days ago: the streak is yesterday and today.
        let gap = MissionContext(priorRuns: [Self.prior(today - 3 * Self.day, 5000), Self.prior(yesterday, 4000)],
                                 utcOffset: Self.offset)
        let broken = check(spec, [.run(3000, 330)], start: today, context: gap)
        #expect(broken.status == .failed && broken.count?.done == 2)
        #expect(abs(broken.progress - 2.0 / 3) < 1e-12)
    }

    @Test("weekly volume: Monday to Sunday in local time; 19.8 km passes 20 km (99 %), last Sunday does not count")
    func weeklyVolume() {
        let spec = MissionSpec.weeklyVolume(distance: 20_000)
        let wednesday = SyntheticRun.instant(hour: 18, minute: 0, utcOffset: Self.offset)   // 2026-06-03
        let monday = wednesday - 2 * Self.day
        let sundayBefore = SyntheticRun.instant(hour: 23, minute: 0, utcOffset: Self.offset, dayOffset: -3)
        let context = MissionContext(priorRuns: [Self.prior(monday, 6000), Self.prior(monday + Self.day, 6000),
                                                 Self.prior(sundayBefore, 10_000)], utcOffset: Self.offset)
        #expect(check(spec, [.run(7800, 330)], start: wednesday, context: context).status == .completed)
        let short = check(spec, [.run(7700, 330)], start: wednesday, context: context)
        #expect(short.status == .failed)
        #expect(short.evidence[0].hasPrefix("19.70 km in the week from 2026-06-01 over 3 runs"))
    }

    @Test("personal best: strictly faster than the best earlier effort, no tolerance")
    func personalBest() {
        let spec = MissionSpec.personalBest(distance: 5000)
        let start = SyntheticRun.instant(hour: 8, minute: 0, utcOffset: Self.offset)
        let context = MissionContext(priorRuns: [Self.prior(start - 5 * Self.day, 8000, efforts: [5000: 1500]),
                                                 Self.prior(start - 9 * Self.day, 5000, efforts: [5000: 1560])],
                                     utcOffset: Self.offset)
        #expect(check(spec, [.run(1000, 400), .run(5000, 299.8)], start: start, context: context).status == .completed)
        let slower = check(spec, [.run(1000, 400), .run(5000, 300.2)], start: start, context: context)
        #expect(slower.status == .failed && slower.progress > 0.98)
        #expect(check(spec, [.run(5000, 280)], start: start, context: .empty).status == .notApplicable)
        // The summary of a run uses the same measure as the check.
        let run = SyntheticRun.run([.run(5000, 300)])
        let summary = PriorRun(metrics: run.metrics, utcOffset: 0)
        #expect(abs(summary.bestEfforts[5000]! - 1500) < 0.5)
    }

    @Test("race finish and podium come from the race result; without a race they are not applicable")
    func races() {
        let run: [Leg] = [.run(5000, 300)]
        let start = SyntheticRun.defaultStart
        func race(_ finished: Bool, _ place: Int?, _ n: Int, _ d: Meters = 5000) -> MissionContext {
            MissionContext(race: RaceResult(distance: d, finished: finished, place: place, participants: n))
        }
        #expect(check(.raceFinish(minDistance: 5000), run, start: start, context: race(true, 7, 9)).status == .completed)
        #expect(check(.raceFinish(minDistance: 5000), run, start: start, context: race(true, 7, 9, 3000)).status == .failed)
        let dnf = check(.raceFinish(minDistance: 5000), [.run(2500, 300)], start: start, context: race(false, nil, 9))
        #expect(dnf.status == .failed && abs(dnf.progress - 0.5 * 0.99) < 0.01)
        #expect(check(.podium(maxPlace: 3), run, start: start, context: race(true, 3, 10)).status == .completed)
        #expect(check(.podium(maxPlace: 3), run, start: start, context: race(true, 4, 10)).status == .failed)
        #expect(check(.podium(maxPlace: 3), run, start: start, context: race(true, 1, 1)).status == .failed)
        #expect(check(.podium(maxPlace: 3), run, start: start, context: .empty).status == .notApplicable)
    }

    @Test("explorer: new ground is measured against the cells of earlier runs")
    func explorer() {
        let spec = MissionSpec.explorer(minNewFraction: 0.3, minDistance: 3000)
        let before = ExplorerGrid.cells(of: SyntheticRun.run([.run(5000, 330, bearing: 75)]))
        let context = MissionContext(visitedCells: before)
        // 3 km on the old line, then 2 km north: about 2/5 new.
        let inside = check(spec, [.run(3000, 330, bearing: 75), .run(2000, 330, bearing: 345)],
                           start: SyntheticRun.defaultStart + Self.day, context: context)
        #expect(inside.status == .completed)
        #expect(abs(inside.details.last!.value - 0.4) < 0.03)
        let outside = check(spec, [.run(3700, 330, bearing: 75), .run(1300, 330, bearing: 345)],
                            start: SyntheticRun.defaultStart + Self.day, context: context)
        #expect(outside.status == .failed)
        // The same run again is all old ground; a first run is all new; unknown history: no verdict.
        let again = check(spec, [.run(5000, 330, bearing: 75)], start: SyntheticRun.defaultStart + Self.day, context: context)
        #expect(again.details.last!.value < 0.01)
        let first = check(spec, [.run(5000, 330)], start: SyntheticRun.defaultStart, context: MissionContext(visitedCells: []))
        #expect(first.status == .completed && first.details.last!.value == 1)
        #expect(check(spec, [.run(5000, 330)], start: SyntheticRun.defaultStart, context: .empty).status == .notApplicable)
    }
}
