import Testing
import RunusCore
import Tracking
@testable import ActivityLab

/// Labelled tracks come from files: a fold whose training tracks hold no moving window (all
/// stationary, or too short) must give no outcomes, not stop `runus segmentation-report`.
@Suite("training on no moving windows")
struct EmptyTrainingTests {
    /// `seconds` fixes at 1 Hz moving `speed` m/s north from 45° N.
    static func track(seconds: Int, speed: Double) -> Track {
        Track(points: (0...seconds).map { i in
            TrackPoint(time: 1_800_000_000 + Double(i), latitude: 45 + Double(i) * speed / 111_200, longitude: 7)
        })
    }

    @Test("no moving window: no classifier, and the fold that needed one scores nothing")
    func emptyFold() {
        #expect(ActivityClassifier(training: []) == nil)
        let tracks = [
            LabelledTrack(person: "walker", activity: .walk, track: Self.track(seconds: 900, speed: 1.4)),
            LabelledTrack(person: "sitter", activity: .walk, track: Self.track(seconds: 900, speed: 0)),
        ]
        let assignment = ["walker": 0, "sitter": 1]
        // Fold 0 trains on the sitter's track alone: not one moving window.
        #expect(SegmentationEvaluation.fold(0, of: tracks, assignment: assignment, options: .init()).isEmpty)
        // Fold 1 trains on the walker and scores the sitter.
        #expect(!SegmentationEvaluation.fold(1, of: tracks, assignment: assignment, options: .init()).isEmpty)
    }
}
