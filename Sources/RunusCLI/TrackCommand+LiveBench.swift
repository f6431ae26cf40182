import Foundation
import RunusCore
import Tracking
import TrackFormats

extension TrackCommand {
    /// `runus metrics --bench-live N FILE…` (make bench): the files' tracks parsed once, then
    /// fed to a `LiveTracker` fix by fix, `runs` times after a warm-up; median wall times of
    /// (a) appending every fix and one snapshot at the end, without and with the optimistic tail
    /// (record 0160), (b) a snapshot after every fix (a live screen updated each second) with
    /// it, and (c) the same without best efforts (what a race tracker keeps). Prints JSON.
    /// `appendOnly`: (a) without the optimistic tail alone, so that a profiler sees only it.
    static func benchLive(_ paths: [String], runs: Int, appendOnly: Bool = false) throws -> String {
        var tracks: [Track] = []
        for path in paths {
            var bytes = try TrackFiles.bytes(path)
            if Gzip.isGzip(bytes) { bytes = try Gzip.decompress(bytes, name: path) }
            tracks += try TrackFileReader.read(bytes, name: path).activities.map(\.track)
        }
        _ = ActivityClassifier.default   // trained at first use (record 0143), outside the timing
        let points = tracks.reduce(0) { $0 + $1.points.count }
        var checksum = 0.0, maxUndecided = 0
        func once(snapshotEvery: Bool, efforts: Bool = true, optimistic: Bool = true) {
            checksum = 0
            for track in tracks {
                var live = LiveTracker(effortDistances: efforts ? LiveTracker.defaultEffortDistances : [],
                                       optimisticTail: optimistic)
                for p in track.points {
                    live.append(p)
                    if snapshotEvery {
                        checksum += live.snapshot().distance
                        maxUndecided = max(maxUndecided, live.undecided)
                    }
                }
                checksum += live.snapshot().distance
            }
        }
        let clock = ContinuousClock()
        func median(snapshotEvery: Bool, efforts: Bool = true, optimistic: Bool = true) -> Double {
            once(snapshotEvery: snapshotEvery, efforts: efforts, optimistic: optimistic)  // warm-up
            var times: [Double] = []
            for _ in 0..<runs {
                let d = clock.measure { once(snapshotEvery: snapshotEvery, efforts: efforts, optimistic: optimistic) }
                times.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
            }
            return times.sorted()[times.count / 2]
        }
        let append = median(snapshotEvery: false, optimistic: false)
        let distance = checksum
        let common: [String: JSONValue] = [
            "files": .number(Double(paths.count)), "points": .number(Double(points)), "runs": .number(Double(runs)),
            "append_median_s": .number(append), "append_points_per_s": .number(Double(points) / append),
            "distance_sum_m": .number(distance),
        ]
        if appendOnly { return JSONWriter.string(.object(common)) }
        let appendOptimistic = median(snapshotEvery: false)
        precondition(checksum == distance, "bench-live: the optimistic tail changed the distance sum")
        let everyFix = median(snapshotEvery: true)
        let everyFixSum = checksum
        let everyFixNoEfforts = median(snapshotEvery: true, efforts: false)
        precondition(checksum == everyFixSum, "bench-live: best efforts changed the distance sums")
        return JSONWriter.string(.object(common.merging([
            "append_optimistic_median_s": .number(appendOptimistic),
            "append_optimistic_points_per_s": .number(Double(points) / appendOptimistic),
            "snapshot_every_fix_median_s": .number(everyFix), "snapshot_every_fix_points_per_s": .number(Double(points) / everyFix),
            "snapshot_every_fix_no_efforts_median_s": .number(everyFixNoEfforts),
            "snapshot_every_fix_no_efforts_points_per_s": .number(Double(points) / everyFixNoEfforts),
            "max_undecided": .number(Double(maxUndecided)),
        ]) { a, _ in a }))
    }
}
