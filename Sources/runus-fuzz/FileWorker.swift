import Foundation
import Fuzzing

/// `runus-fuzz files-worker`: mutated files `from`..<`from + count` through the pipeline, in
/// this process. Before each file it writes `B <index>` and after it
/// `E <index> <accepted|refused> <problem|format> <microseconds> <points> <anomalies>`, then
/// `A <index> <text>` per anomaly, flushing each line, so the parent knows which file a crash
/// or a hang happened on. `--skip-kinds a,b` leaves mission kinds out of the check (the parent
/// does so for a kind that already crashed or hung).
enum FileWorker {
    static func run(_ options: Options) throws {
        let seed = UInt64(try options.int("seed", default: 1))
        let from = try options.int("from", default: 0)
        let count = try options.int("count", default: 100)
        let (seeds, _) = Corpus.load(datasets: options.string("datasets"), seed: seed)
        let mutator = FileMutator(seeds: seeds, seed: seed, maximumBytes: try options.int("max-file-bytes", default: 16 << 20))
        let skipped = Set((options.string("skip-kinds") ?? "").split(separator: ",").map(String.init))
        let kinds = FilePipeline.kinds.filter { !skipped.contains($0.rawValue) }
        let clock = ContinuousClock()
        for index in from..<(from + count) {
            let file = mutator.file(index)
            emit("B \(index)")
            var outcome: FilePipeline.Outcome!
            let elapsed = clock.measure { outcome = FilePipeline.run(file.bytes, name: file.name, kinds: kinds) }
            let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
            let what = outcome.accepted ? outcome.format : (outcome.problem ?? "?")
            emit("E \(index) \(outcome.accepted ? "accepted" : "refused") \(what) \(micros) \(outcome.points) \(outcome.anomalies.count)")
            for a in outcome.anomalies.prefix(3) { emit("A \(index) \(a)") }
        }
    }

    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
