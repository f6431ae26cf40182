import RunusCore
import Missions
import Engine

/// How many labelled examples each mission kind gets and how often they were completed (the
/// per-kind base rate), from logged outcomes, history or both (record 0600): `runus labels`.
public struct LabelCounts: Sendable {
    public struct Row: Sendable {
        public let kind: MissionKind
        /// 1 completed, 0 failed.
        public let label: Double
        /// The run a history label was checked against; nil for logged outcomes.
        public let runID: String?
        public let user: UserID
        /// Whether a history label comes from a run without a track (its summary).
        public let summary: Bool
    }

    public let source: LabelSource
    public let rows: [Row]

    /// History labels take each runner's offset at each run from `resolver`; `progress` follows
    /// the runs labelled.
    public init(store: any TrainingStore, source: LabelSource, resolver: any UTCOffsetResolver,
                progress: (any ProgressReporter)? = nil) throws {
        var rows: [Row] = []
        if source != .logged {
            let history = try HistoryLabelling.labels(store: store, resolver: resolver, progress: progress)
            rows = history.labels.map { Row(kind: $0.example.kind, label: $0.example.label, runID: $0.runID,
                                            user: $0.example.userID, summary: history.summaryRuns.contains($0.runID)) }
        }
        if source != .history {
            rows += try TrainingPipeline.examples(store: store).examples.map {
                Row(kind: $0.kind, label: $0.label, runID: nil, user: $0.userID, summary: false)
            }
        }
        self.source = source
        self.rows = rows
    }

    /// Tab-separated: kind, examples, completed, base rate, examples from summary-only runs,
    /// runs and runners with a label; one line per kind with labels, then "all".
    public func table() -> String {
        var text = "labels: \(source.rawValue)\nkind\texamples\tcompleted\tbase_rate\tfrom_summary\truns\trunners\n"
        func line(_ name: String, _ group: [Row]) -> String {
            let completed = group.reduce(0) { $0 + ($1.label == 1 ? 1 : 0) }
            let rate = group.isEmpty ? "-" : TrainingPipeline.rounded(Double(completed) / Double(group.count))
            let runs = Set(group.compactMap(\.runID)).count
            return "\(name)\t\(group.count)\t\(completed)\t\(rate)\t\(group.filter(\.summary).count)\t\(runs)\t\(Set(group.map(\.user)).count)\n"
        }
        let byKind = Dictionary(grouping: rows, by: \.kind)
        for kind in MissionKind.allCases where byKind[kind] != nil { text += line(kind.rawValue, byKind[kind]!) }
        text += line("all", rows)
        return text
    }
}
