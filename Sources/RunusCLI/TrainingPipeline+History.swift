import RunusCore
import Service
import Tracking
import TrackFormats
import Missions
import Features
import Engine

/// Which labels training uses (record 0600): outcomes of missions the app offered and the
/// runner tried, candidates checked against each real run from the runner's past alone, or both.
enum LabelSource: String, CaseIterable, Sendable {
    case logged, history, both

    static let names = allCases.map(\.rawValue).joined(separator: "|")
}

extension TrainingPipeline {
    /// Examples of `labels`, ordered by (time, id). `logged` is `examples(store:)` unchanged.
    static func examples(store: SQLiteStoreReader, labels: LabelSource, progress: ImportProgress? = nil) throws
        -> (examples: [LabelledExample], runners: Int, sources: [String]) {
        switch labels {
        case .logged:
            return try examples(store: store)
        case .history:
            let history = try HistoryLabelling.labels(store: store, progress: progress)
            return (history.labels.map(\.example), history.runners, history.sources)
        case .both:
            let logged = try examples(store: store)
            let history = try HistoryLabelling.labels(store: store, progress: progress)
            var all = logged.examples + history.labels.map(\.example)
            all.sort { ($0.time, $0.assignmentID, $0.userID) < ($1.time, $1.assignmentID, $1.userID) }
            return (all, logged.runners, Array(Set(logged.sources + history.sources)).sorted())
        }
    }
}

/// History labels (Engine's `HistoryLabels`) for every runner of a store: reads each runner's
/// runs, decodes each run's track and checks the candidates, runs in parallel on every core.
enum HistoryLabelling {
    struct Output {
        /// Every label, ordered by (time, id).
        var labels: [HistoryLabels.Label]
        /// Ids of the labelled runs that had no track (labelled from their summary).
        var summaryRuns: Set<String>
        var runners: Int
        /// Sources of the runs read ("import", "simulated", "app"), sorted.
        var sources: [String]
    }

    static func labels(store: SQLiteStoreReader, resolver: any UTCOffsetResolver = SystemTimeZones(),
                       progress: ImportProgress? = nil) throws -> Output {
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
            let perRun = ParallelMap.map(count: runs.count) { i -> Result<(labels: [HistoryLabels.Label], summary: Bool), Error> in
                Result {
                    guard let blob = try store.run(user: runs[i].userID, id: runs[i].id)?.track else {
                        let offset = user.utcOffset(at: runs[i].startTime, resolver: resolver)
                        return (HistoryLabels.labels(history: runs, at: i, run: nil, utcOffset: offset), true)
                    }
                    let track: Track
                    do {
                        track = try CompactTrackCodec.decode(blob)
                    } catch {
                        throw CLIError("run \(runs[i].id): stored track cannot be decoded: \(error)")
                    }
                    let offset = user.utcOffset(at: runs[i].startTime, resolver: resolver)
                    return (HistoryLabels.labels(history: runs, at: i, run: MissionRun(track: track), utcOffset: offset), false)
                }
            }
            for (i, result) in perRun.enumerated() {
                let (runLabels, summary) = try result.get()
                if summary && !runLabels.isEmpty { summaryRuns.insert(runs[i].id) }
                labels += runLabels
            }
            done += runs.count
            progress?.update(done: done, total: total)
        }
        progress?.finish()
        labels.sort { ($0.example.time, $0.example.assignmentID, $0.example.userID) < ($1.example.time, $1.example.assignmentID, $1.example.userID) }
        return Output(labels: labels, summaryRuns: summaryRuns, runners: users.count, sources: sources.sorted())
    }
}
