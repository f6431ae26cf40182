import Testing
import RunusCore
import ActivityLab
@testable import Tracking

/// How a labelled track's segment-level prediction is formed (record 0145).
@Suite("Segmentation evaluation")
struct SegmentationEvaluationTests {
    @Test("a track's prediction is the label of most of its distance, a dropout between windows included")
    func predictionByDistance() throws {
        // 10 min of walking, a 15 min subway ride the GPS lost (3.6 km), 5 min of walking: every
        // window walks, but most of the distance is the vehicle dropout (record 0132).
        let track = VehicleDropoutTests.walkWithDropout(seconds: 900, speed: 4, before: 600, after: 300)
        let labelled = LabelledTrack(person: "p", activity: .vehicle, track: track, source: "s1")
        let outcome = try #require(SegmentationEvaluation.outcomes([labelled], classifier: .default).first)
        #expect(outcome.source == "s1" && outcome.person == "p")
        #expect(outcome.predicted == .vehicle)
        // Walking 1,170 m, the dropout 3,600 m; 1 % covers the jitter filter and the builder's
        // ellipsoid steps against the evaluation's local distance.
        let share = 3600.0 / (3600 + 1170)
        #expect(abs(outcome.vehicleShare - share) < 0.01, "vehicle share \(outcome.vehicleShare), expected \(share)")
        // Windows are scored on their own: none of them crosses the dropout, all walk.
        #expect(outcome.scores.windows.counts[ActivityClass.vehicle.rawValue][ActivityClass.walk.rawValue] == outcome.scores.windows.total)
        // Without the dropout rule the same track is a walk.
        let off = MetricsConfiguration(vehicleDropoutSpeed: .infinity)
        let walked = try #require(SegmentationEvaluation.outcomes([labelled], classifier: .default, configuration: off).first)
        #expect(walked.predicted == .walk && walked.vehicleShare == 0)
    }
}
