import Foundation
import ActivityLab
import Tracking

/// `runus segmentation-model`: trains the shipped activity classifier on synthetic tracks only
/// (seeded) and writes its forest as Swift source (record 0147). `make segmentation-model`
/// regenerates `Sources/Tracking/ActivityClassifier+Shipped.swift` with it.
enum SegmentationModelCommand: Command {
    static let name = "segmentation-model"
    static let abstract = "Train the shipped activity classifier on synthetic tracks and write it as Swift source."
    static let usage = "[--out FILE]"
    static let parser = ArgumentParser(options: [
        .optional("out", "FILE", help: "Where to write the Swift source (default: standard output)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let source = ActivityClassifier.shippedSource(ActivityClassifier.trainShipped().forest)
        if let path = arguments.string("out") {
            do { try source.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw CLIError("\(path): cannot write the classifier source: \(error)")
            }
            output.err("wrote \(path)\n")
        } else {
            output.out(source)
        }
        return .success
    }
}
