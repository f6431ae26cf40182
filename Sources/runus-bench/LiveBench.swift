import Engine
import RunusCore
import Tracking
import TrackFormats

/// The live tracker fed the files' tracks fix by fix, in the configurations that matter, each
/// the median of `runs` passes over all tracks after a warm-up:
/// - `race`: what the daemon runs for a race participant, Engine's `LiveRaceTracker` (a
///   `LiveTracker` without best efforts, with the optimistic tail) given one fix per update and
///   read after each (a snapshot per update): the first figure `make bench` quotes;
/// - `append`: every fix appended and one final snapshot, best efforts kept, no optimistic tail
///   (the issue-3 goal against gpxpy's metrics, and the mode `--append-only` times alone);
/// - `append_optimistic`: the same with the optimistic tail kept;
/// - `snapshot_every_fix`: a snapshot after every fix with best efforts and the optimistic tail
///   (a live screen updated each second).
/// The tracker's modes must agree on the distance sum (each is the batch record's): checked here.
/// The race tracker's sum is reported apart: it ignores fixes not after the last one it accepted,
/// before cleaning, as the daemon does.
struct LiveBench {
    let tracks: [Track]
    let fileCount: Int
    let runs: Int

    /// - Throws: `TrackReadError` for a file that does not parse.
    init(inputs: BenchInputs, runs: Int) throws {
        var tracks: [Track] = []
        for (name, bytes) in inputs.files {
            tracks += try TrackFileReader.read(bytes, name: name).activities.map(\.track)
        }
        self.tracks = tracks
        fileCount = inputs.files.count
        self.runs = runs
        _ = ActivityClassifier.default   // the shipped forest is read from its text at first use: not in the timing
    }

    func run(appendOnly: Bool) -> [String: Double] {
        let points = Double(tracks.reduce(0) { $0 + $1.points.count })
        var result: [String: Double] = ["files": Double(fileCount), "points": points, "runs": Double(runs)]
        func record(_ name: String, seconds: Double) {
            result[name + "_median_s"] = seconds
            result[name + "_points_per_s"] = points / seconds
        }
        var finalSum = 0.0
        record("append", seconds: BenchInputs.median(runs: runs) { finalSum = trackerPass(snapshotEvery: false, optimistic: false) })
        result["distance_sum_m"] = finalSum
        if appendOnly { return result }

        var raceSum = 0.0
        record("race", seconds: BenchInputs.median(runs: runs) { raceSum = racePass() })
        result["race_distance_sum_m"] = raceSum
        var optimisticSum = 0.0
        record("append_optimistic", seconds: BenchInputs.median(runs: runs) {
            optimisticSum = trackerPass(snapshotEvery: false, optimistic: true)
        })
        precondition(optimisticSum == finalSum, "runus-bench: the optimistic tail changed the distance sum")
        var maxUndecided = 0
        var everySum = 0.0
        record("snapshot_every_fix", seconds: BenchInputs.median(runs: runs) {
            everySum = trackerPass(snapshotEvery: true, optimistic: true, maxUndecided: &maxUndecided)
        })
        precondition(everySum == finalSum, "runus-bench: snapshots after every fix changed the distance sum")
        result["max_undecided"] = Double(maxUndecided)
        return result
    }

    /// One `LiveRaceTracker` per track, one fix per update, the distance read after each; the sum
    /// of the tracks' final distances in metres (the per-update distances go into `probe`, so
    /// that no snapshot can be left out).
    private func racePass() -> Double {
        var sum = 0.0, probe = 0.0
        for track in tracks {
            var race = LiveRaceTracker()
            for p in track.points {
                race.append([p])
                probe += race.distance
            }
            sum += race.distance
        }
        precondition(probe.isFinite, "runus-bench: a race distance is not finite")
        return sum
    }

    /// One `LiveTracker` per track with the default best efforts; the sum of the tracks' final
    /// snapshot distances in metres.
    private func trackerPass(snapshotEvery: Bool, optimistic: Bool) -> Double {
        var ignored = 0
        return trackerPass(snapshotEvery: snapshotEvery, optimistic: optimistic, maxUndecided: &ignored)
    }

    private func trackerPass(snapshotEvery: Bool, optimistic: Bool, maxUndecided: inout Int) -> Double {
        var sum = 0.0, probe = 0.0
        for track in tracks {
            var live = LiveTracker(optimisticTail: optimistic)
            for p in track.points {
                live.append(p)
                if snapshotEvery {
                    probe += live.snapshot().distance
                    maxUndecided = max(maxUndecided, live.undecided)
                }
            }
            sum += live.snapshot().distance
        }
        precondition(probe.isFinite, "runus-bench: a snapshot distance is not finite")
        return sum
    }
}
