import Testing
import RunusCore
@testable import Tracking

/// `RunMetrics.activityParts` against the obvious computation: the cleaned track's
/// `activitySegments`, each segment's times read from its fixes and its path summed step by
/// step, bit for bit; and the record's vehicle cut is the one those segments give.
@Suite("Run metrics' activity parts")
struct RunMetricsActivityPartsTests {
    @Test("the parts are the cleaned track's activity segments, with their times and path", arguments: [1, 2, 3] as [UInt64])
    func partsAreTheSegments(seed: UInt64) {
        let track = Track(points: RandomRuns.track(seed: seed, minutes: 40))
        let m = RunMetrics(track: track)
        let cleaned = track.cleaned()
        let segments = cleaned.activitySegments()
        #expect(m.activityParts.count == segments.count && !segments.isEmpty)
        for (part, s) in zip(m.activityParts, segments) {
            var path: Meters = 0
            for i in s.range {
                let a = cleaned.points[i - 1], b = cleaned.points[i]
                path += Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
            }
            #expect(part == ActivityPart(activity: s.activity, confidence: s.confidence,
                                         startTime: cleaned.points[s.range.lowerBound - 1].time,
                                         endTime: cleaned.points[s.range.upperBound].time, path: path))
        }
        #expect(m.activityParts.first?.startTime == cleaned.points.first?.time)
        #expect(m.activityParts.last?.endTime == cleaned.points.last?.time)
        // The record starts after the leading vehicle parts and ends before the trailing ones.
        let leading = m.activityParts.prefix { $0.activity == .vehicle }
        let trailing = m.activityParts.reversed().prefix { $0.activity == .vehicle }
        #expect(m.startTime == (leading.last?.endTime ?? cleaned.points[0].time))
        #expect(m.endTime == (trailing.last?.startTime ?? cleaned.points[cleaned.points.count - 1].time))
    }

    @Test("no parts when the configuration does not classify, or with fewer than two fixes")
    func noParts() {
        let track = Track(points: RandomRuns.track(seed: 4, minutes: 10))
        #expect(RunMetrics(track: track, configuration: MetricsConfiguration(classifyActivities: false)).activityParts.isEmpty)
        #expect(RunMetrics(track: Track(points: Array(track.points.prefix(1)))).activityParts.isEmpty)
        #expect(RunMetrics(track: Track(points: [])).activityParts.isEmpty)
    }
}
