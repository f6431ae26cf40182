import RunusCore
import Tracking
import TrackFormats
import Missions
import Features
import Engine

/// History labels (Engine's `HistoryLabels`) for every runner of a store: reads each runner's
/// runs, decodes each run's track and checks the candidates, runs in parallel on every core.
public enum HistoryLabelling {
    public struct Output: Sendable {
        /// Every label, in training order (`LabelledExample.inTrainingOrder`).
        public var labels: [HistoryLabels.Label]
        /// Ids of the labelled runs that had no track (labelled from their summary).
        public var summaryRuns: Set<String>
        public var runners: Int
        /// Sources of the runs read ("import", "simulated", "app"), sorted.
        public var sources: [String]
    }

    /// `resolver` gives each runner's UTC offset at each run (local start hour and day).
    public static func labels(store: any TrainingStore, resolver: any UTCOffsetResolver,
                              progress: (any ProgressReporter)? = nil) throws -> Output {
        let users = try store.allUsers()
        var labels: [HistoryLabels.Label] = []
        var summaryRuns: Set<String> = []
        var sources: Set<String> = []
        var histories: [(UserProfile, [RunRecord])] = []
        for user in users {
            histories.append((user, try store.runs(user: user.id, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)))
        }
        let total = histories.reduce(0) { $0 + $1.1.count }
        var done = 0
        progress?.update(done: 0, total: total)
        for (user, runs) in histories {
            runs.forEach { sources.insert($0.source) }
            // Each track decoded once for the digests every later run's labels read (explorer,
            // personal best: record 0645); a track that does not decode fails below.
            let digests = ParallelMap.map(count: runs.count) { i -> RunDigest? in
                RunDigests.digest(track: try? store.run(user: runs[i].userID, id: runs[i].id)?.track)
            }.compactMap { $0 }
            // The verdicts in parallel, then the features in time order, each run's read with the
            // runner's earlier labels as past outcomes (record 0663).
            let perRun = ParallelMap.map(count: runs.count) { i -> Result<(verdicts: HistoryLabels.Verdicts?, summary: Bool), Error> in
                Result {
                    guard let blob = try store.run(user: runs[i].userID, id: runs[i].id)?.track else {
                        let offset = user.utcOffset(at: runs[i].startTime, resolver: resolver)
                        return (HistoryLabels.verdicts(history: runs, at: i, run: nil, utcOffset: offset, digests: digests), true)
                    }
                    let track: Track
                    do {
                        track = try CompactTrackCodec.decode(blob)
                    } catch {
                        throw TrainingError.undecodableTrack(run: runs[i].id, problem: "\(error)")
                    }
                    let offset = user.utcOffset(at: runs[i].startTime, resolver: resolver)
                    return (HistoryLabels.verdicts(history: runs, at: i, run: MissionRun(track: track), utcOffset: offset,
                                                   digests: digests), false)
                }
            }
            var verdicts: [HistoryLabels.Verdicts] = []
            for (i, result) in perRun.enumerated() {
                let (runVerdicts, summary) = try result.get()
                guard let runVerdicts else { continue }
                if summary && !runVerdicts.checked.isEmpty { summaryRuns.insert(runs[i].id) }
                verdicts.append(runVerdicts)
            }
            let decided = verdicts, outcomes = HistoryLabels.pastOutcomes(runner: decided)
            labels += ParallelMap.map(count: decided.count) { HistoryLabels.labels(decided[$0], outcomes: outcomes[$0]) }
                .flatMap { $0 }
            done += runs.count
            progress?.update(done: done, total: total)
        }
        progress?.finish()
        labels.sort { LabelledExample.inTrainingOrder($0.example, $1.example) }
        return Output(labels: labels, summaryRuns: summaryRuns, runners: users.count, sources: sources.sorted())
    }
}
