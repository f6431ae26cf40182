import Testing
import Foundation
import RunusCore
import Tracking
import Missions
import Features
@testable import Engine

/// The runner's earlier history labels as past outcomes (record 0663).
@Suite("HistoryLabels past outcomes")
struct HistoryPastOutcomesTests {
    /// Every run's verdicts; runs without enough past are absent.
    func verdicts(_ h: LabelHistory) -> [HistoryLabels.Verdicts] {
        h.records.indices.compactMap { HistoryLabels.verdicts(history: h.records, at: $0, run: h.missionRun($0)) }
    }

    /// The counts by brute force: every checked candidate of every run that started strictly
    /// before `start` and at most the outcome window before it.
    func bruteCounts(_ runs: [HistoryLabels.Verdicts], before start: EpochSeconds) -> [MissionKind: OutcomeCount] {
        var counts: [MissionKind: OutcomeCount] = [:]
        for v in runs where v.start < start && start - v.start <= RunnerState.outcomeWindowDays * 86_400 {
            for c in v.checked {
                counts[c.spec.kind, default: OutcomeCount()].tried += 1
                if c.completed { counts[c.spec.kind, default: OutcomeCount()].completed += 1 }
            }
        }
        return counts
    }

    @Test("each run counts the labels of the runs in the 90 days before it, and its features read them")
    func windowMatchesBruteForce() throws {
        // 70 runs 1-3 days apart: about 140 days, so the window drops the earliest runs.
        let h = LabelHistory(seed: 19, count: 70)
        let runs = verdicts(h)
        let counts = HistoryLabels.pastOutcomes(runner: runs)
        #expect(counts.count == runs.count)
        let names = MissionFeatures.schema.features.map(\.name)
        let rateKind = try #require(names.firstIndex(of: "past_completion_rate_kind"))
        let rateAll = try #require(names.firstIndex(of: "past_completion_rate"))
        let tries = try #require(names.firstIndex(of: "log_past_tries"))
        let logOddsKind = try #require(names.firstIndex(of: "past_log_odds_kind"))
        var windowDropped = 0, read = 0
        for (v, got) in zip(runs, counts) {
            let expected = bruteCounts(runs, before: v.start)
            #expect(got == expected, "run \(v.runID)")
            let everything = runs.filter { $0.start < v.start }.reduce(0) { $0 + $1.checked.count }
            if everything > expected.values.reduce(0, { $0 + $1.tried }) { windowDropped += 1 }
            let total = expected.values.reduce(into: OutcomeCount()) { $0.tried += $1.tried; $0.completed += $1.completed }
            for label in HistoryLabels.labels(v, outcomes: got) {
                let own = expected[label.example.kind] ?? OutcomeCount()
                let f = label.example.features
                #expect(abs(f[rateKind] - (Double(own.completed) + 1) / (Double(own.tried) + 2)) <= 1e-12)
                #expect(abs(f[rateAll] - (Double(total.completed) + 1) / (Double(total.tried) + 2)) <= 1e-12)
                #expect(abs(f[tries] - log(1 + Double(total.tried))) <= 1e-12)
                #expect(abs(f[logOddsKind] - log((Double(own.completed) + 1) / (Double(own.tried - own.completed) + 1))) <= 1e-12)
                if own.tried > 0 { read += 1 }
            }
        }
        #expect(windowDropped > 10, "the history is long enough for the window to drop runs")
        #expect(read > 500)
    }

    @Test("only the outcome features change; the verdicts and every other feature are those without outcomes")
    func onlyOutcomeFeaturesChange() throws {
        let h = LabelHistory(seed: 23, count: 30)
        let runs = verdicts(h)
        let names = MissionFeatures.schema.features.map(\.name)
        let outcomeFeatures = Set(["past_completion_rate_kind", "past_completion_rate", "log_past_tries", "past_log_odds_kind"]
                                  + MissionFeatures.kinds.map { "past_log_odds_\($0.rawValue)" })
        let with = HistoryLabels.labels(runner: runs)
        let without = runs.flatMap { HistoryLabels.labels($0) }
        #expect(with.count == without.count)
        var differs = 0
        for (a, b) in zip(with, without) {
            #expect(a.example.assignmentID == b.example.assignmentID)
            #expect(a.example.label == b.example.label)
            for (j, name) in names.enumerated() where !outcomeFeatures.contains(name) {
                #expect(a.example.features[j] == b.example.features[j], "\(name)")
            }
            if a.example.features != b.example.features { differs += 1 }
        }
        #expect(differs > with.count / 2)
    }

    @Test("runs that start together never count each other, and the input order does not matter")
    func twinsAndOrder() throws {
        let h = LabelHistory(seed: 29, count: 12)
        var records = h.records
        var twin = records[6]
        twin.id = "u:run-6b"; twin.distance *= 2; twin.moving *= 2
        records.insert(twin, at: 7)
        let runs = records.indices.compactMap { HistoryLabels.verdicts(history: records, at: $0, run: nil) }
        let counts = HistoryLabels.pastOutcomes(runner: runs)
        let a = try #require(runs.firstIndex { $0.runID == "u:run-6" })
        let b = try #require(runs.firstIndex { $0.runID == "u:run-6b" })
        #expect(counts[a] == counts[b])
        #expect(counts[a] == bruteCounts(runs, before: runs[a].start))
        let shuffled = Array(runs.reversed())
        let again = HistoryLabels.pastOutcomes(runner: shuffled)
        for (i, v) in shuffled.enumerated() {
            #expect(again[i] == counts[try #require(runs.firstIndex { $0.runID == v.runID })])
        }
        #expect(HistoryLabels.pastOutcomes(runner: []).isEmpty)
    }
}
