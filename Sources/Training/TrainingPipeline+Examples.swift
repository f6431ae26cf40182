import RunusCore
import Features
import Engine
import Missions

/// The labelled examples of one label source read from a store, in training order
/// (`LabelledExample.inTrainingOrder`).
public struct TrainingData: Sendable {
    public let examples: [LabelledExample]
    /// Runners in the store, >= 0.
    public let runners: Int
    /// Where the runs came from ("simulated", "import", "app"), sorted.
    public let sources: [String]
    /// The history labels among `examples`, with the spec and run of each; nil for logged labels.
    public let history: HistoryLabelling.Output?
}

extension TrainingPipeline {
    /// Every runner's logged examples: the missions offered and tried, features as of the offer.
    public static func examples(store: any TrainingStore) throws -> TrainingData {
        var all: [LabelledExample] = []
        var sources: Set<String> = []
        let users = try store.allUsers()
        for user in users {
            let runs = try store.runs(user: user.id, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
            for run in runs { sources.insert(run.source) }
            let assignments = try store.assignments(user: user.id, from: CivilDate(daysSinceEpoch: -1_000_000),
                                                    to: CivilDate(daysSinceEpoch: 1_000_000))
            let digests = Self.digests(of: runs, store: store)
            all += try ExampleBuilder.examples(runs: runs, assignments: assignments, utcOffset: user.utcOffsetSeconds,
                                               digests: digests)
        }
        all.sort(by: LabelledExample.inTrainingOrder)
        return TrainingData(examples: all, runners: users.count, sources: sources.sorted(), history: nil)
    }

    /// The digests of `runs`' tracks (explorer, personal best: record 0645), each track read
    /// once, in parallel; runs without one are left out.
    static func digests(of runs: [RunRecord], store: any TrainingStore) -> [RunDigest] {
        ParallelMap.map(count: runs.count) { i -> RunDigest? in
            RunDigests.digest(track: runs[i].track ?? (try? store.run(user: runs[i].userID, id: runs[i].id))??.track)
        }.compactMap { $0 }
    }

    /// Examples of `labels` (record 0600). `logged` is `examples(store:)` unchanged; history
    /// labels take each runner's offset at each run from `resolver`.
    public static func examples(store: any TrainingStore, labels: LabelSource, resolver: any UTCOffsetResolver,
                                progress: (any ProgressReporter)? = nil) throws -> TrainingData {
        switch labels {
        case .logged:
            return try examples(store: store)
        case .history:
            let history = try HistoryLabelling.labels(store: store, resolver: resolver, progress: progress)
            return TrainingData(examples: history.labels.map(\.example), runners: history.runners, sources: history.sources,
                                history: history)
        case .both:
            let logged = try examples(store: store)
            let history = try HistoryLabelling.labels(store: store, resolver: resolver, progress: progress)
            let all = (logged.examples + history.labels.map(\.example)).sorted(by: LabelledExample.inTrainingOrder)
            return TrainingData(examples: all, runners: logged.runners, sources: Array(Set(logged.sources + history.sources)).sorted(),
                                history: history)
        }
    }
}
