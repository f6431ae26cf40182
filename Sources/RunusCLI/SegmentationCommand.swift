import Datasets
import Foundation
import RunusCore
import ActivityLab
import Tracking
import Training

/// `runus segmentation-report`: scores the activity classifier on the labelled real data
/// (GeoLife transport modes and the runners' walks, runs and rides), held out by person
/// (record 0145). Reads the dataset folder; writes nothing.
enum SegmentationCommand: Command {
    static let name = "segmentation-report"
    static let abstract = "Score the activity classifier on labelled real tracks, held out by person."
    static let usage = "[--datasets DIR] [--folds N] [--per-sport N] [--seed N] [--outcomes FILE]"
    static let parser = ArgumentParser(options: [
        .optional("datasets", "DIR", help: "Dataset folder (default: $RUNUS_DATASETS or ../shared/datasets)."),
        .value("folds", "N", default: "4", help: "Person folds for the held-out evaluation."),
        .value("per-sport", "N", default: "60", help: "Runner tracks read per runner and sport."),
        .value("seed", "N", default: "145", help: "Seed of the fold assignment and the track draw."),
        .optional("outcomes", "FILE", help: "Also write one CSV row per held-out labelled track (who, source, truth, prediction) to FILE."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let root = Environment.datasets(arguments.string("datasets"))
        let folds = try arguments.int("folds", in: 2...20) ?? 4
        let perSport = try arguments.int("per-sport", in: 1...10_000) ?? 60
        let seed = UInt64(try arguments.int("seed", in: 0...Int(Int32.max)) ?? 145)
        let progress = ProgressOutput(label: "runner tracks", output: output, interactive: ProgressOutput.isTerminal(output))
        let tracks = try LabelledDataset.load(root: root, perSport: perSport, seed: seed, progress: progress)
        let heldOut = report(tracks, folds: folds, seed: seed, output: output)
        if let path = arguments.string("outcomes") {
            do {
                try outcomesCSV(heldOut).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError("--outcomes \(path): cannot write: \(error.localizedDescription)")
            }
        }
        return .success
    }

    /// Held-out outcomes as CSV, a header then one row per labelled track: person, source (GeoLife
    /// segment or runner activity id), truth, predicted, vehicle_share (share of the path left out
    /// as vehicle, 0–1) and windows (its ~2 min windows).
    static func outcomesCSV(_ outcomes: [SegmentationEvaluation.Outcome]) -> String {
        var csv = "person,source,truth,predicted,vehicle_share,windows\n"
        for o in outcomes {
            csv += "\(o.person),\(o.source),\(o.truth),\(o.predicted),\(String(format: "%.4f", o.vehicleShare)),\(o.scores.windows.total)\n"
        }
        return csv
    }

    /// Prints the report; returns the held-out outcomes.
    @discardableResult
    static func report(_ tracks: [LabelledTrack], folds: Int, seed: UInt64, output: OutputSink) -> [SegmentationEvaluation.Outcome] {
        var options = SegmentationEvaluation.Options()
        options.folds = folds
        options.seed = seed
        let assignment = SegmentationEvaluation.folds(of: tracks, count: folds, seed: seed)
        output.out("labelled tracks: \(tracks.count) from \(Set(tracks.map(\.person)).count) persons\n")
        for c in ActivityClass.moving {
            output.out("  \(c): \(tracks.filter { $0.activity == c }.count) tracks\n")
        }
        for k in 0..<folds {
            let persons = assignment.filter { $0.value == k }.map(\.key).sorted()
            output.out("fold \(k): \(persons.joined(separator: " "))\n")
        }
        let fixed = options
        let perFold = ParallelMap.map(count: folds) { k in
            SegmentationEvaluation.fold(k, of: tracks, assignment: assignment, options: fixed)
        }
        for (k, outcomes) in perFold.enumerated() where outcomes.isEmpty && assignment.values.contains(k) {
            output.err("fold \(k): the other folds' tracks give no moving window to train on; its persons are not scored\n")
        }
        let heldOut = perFold.flatMap { $0 }
        show(heldOut, "Forest trained on real data of the other folds, scored on held-out persons", output: output)
        let classifier = ActivityClassifier.default
        let shipped = ParallelMap.map(count: 2) { half in
            SegmentationEvaluation.outcomes(tracks.indices.filter { $0 % 2 == half }.map { tracks[$0] }, classifier: classifier)
        }.flatMap { $0 }
        show(shipped, "Shipped classifier (trained on synthetic tracks only), scored on all real tracks", output: output)
        return heldOut
    }

    static func show(_ outcomes: [SegmentationEvaluation.Outcome], _ title: String, output: OutputSink) {
        let scores = outcomes.reduce(SegmentationEvaluation.Scores()) { $0 + $1.scores }
        output.out("\n== \(title): per labelled segment ==\n")
        output.out(scores.segments.table)
        summary(scores.segments, output: output)
        output.out("\n== \(title): per window (~2 min) ==\n")
        output.out(scores.windows.table)
        summary(scores.windows, output: output)
        output.out("foot/vehicle segment errors by person (labelled walk, run and vehicle segments in brackets):\n")
        for line in SegmentationEvaluation.errorsByPerson(outcomes) { output.out("  \(line)\n") }
    }

    static func summary(_ m: ConfusionMatrix, output: OutputSink) {
        for excluding in [true, false] {
            let b = m.footVsVehicle(excludingStationary: excluding)
            output.out("foot vs vehicle F1 (\(excluding ? "stationary windows left out" : "stationary counted as foot")): "
                       + "foot \(fmt(b.footF1)), vehicle \(fmt(b.vehicleF1)) over \(b.windows)\n")
        }
    }

    static func fmt(_ x: Double) -> String { String(format: "%.3f", x) }
}
