import Foundation
import Testing
import RunusCore
import ActivityLab
@testable import Tracking

// Skipped when the shared datasets are absent (they are never part of the repository).
@Suite("Live tracker on real tracks", .enabled(if: FileManager.default.fileExists(atPath: SharedDatasets.root + "/runners/tracks"),
       "needs the runners' tracks in $RUNUS_DATASETS/runners/tracks (absent here)"))
struct LiveTrackerRealTests {
    /// Real runs from three runners (watch recordings with their own pauses and faults), live
    /// against batch at 20 prefixes each and at the end. No tolerance (see LiveTrackerTests).
    @Test("live equals batch on the runners' real tracks")
    func runners() throws {
        var checked = 0
        for runner in ["runner_a", "runner_b", "runner_c"] {
            let folder = SharedDatasets.root + "/runners/tracks/" + runner
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().prefix(1)
            for file in files {
                let points = try LabelledTrackParser.trackCSV(try SharedDatasets.gunzip(folder + "/" + file)).points
                guard points.count > 10 else { continue }
                let checks = Set(stride(from: 1, through: points.count, by: max(1, points.count / 20)) + [points.count]).sorted()
                let result = LiveTrackerTests.compare(points, at: checks, label: "\(runner)/\(file)")
                #expect(result.failures == 0)
                checked += 1
            }
        }
        #expect(checked >= 3)
    }

    /// GeoLife trajectories (real walks, buses, cars, trains) joined per person into one long
    /// recording, so that real vehicle legs reach both the speed rule and the classifier.
    @Test("live equals batch on real mixed-mode recordings", .enabled(if: SharedDatasets.hasTransport))
    func transport() throws {
        let tracks = try LabelledTrackParser.geoLifePoints(try SharedDatasets.gunzip(SharedDatasets.transport, lines: 30_000))
        var byPerson: [String: [TrackPoint]] = [:]
        for t in tracks { byPerson[t.person, default: []] += t.track.points }
        var vehicleChecks = 0
        for (person, all) in byPerson.sorted(by: { $0.key < $1.key }).prefix(2) {
            let points = Array(all.sorted { $0.time < $1.time }.prefix(4_000))
            let checks = Set(stride(from: 1, through: points.count, by: max(1, points.count / 25)) + [points.count]).sorted()
            let result = LiveTrackerTests.compare(points, at: checks, label: person)
            #expect(result.failures == 0)
            vehicleChecks += result.vehicleChecks
        }
        #expect(vehicleChecks > 0, "no prefix had a vehicle part")
    }
}
