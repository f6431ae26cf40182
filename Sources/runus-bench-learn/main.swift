// runus-bench-learn: our GBDT and logistic regression on the peer benchmark's data (`peers.py gen`),
// one model per process so that /usr/bin/time -v gives each its own peak memory. Prints one JSON
// object per run on stdout; scripts/bench_learn.py runs it next to the Python peers.
//
//   runus-bench-learn gbdt --data DIR/synth_1m.json [--rounds 200] [--leaves 31] [--serial]
//                          [--save-lightgbm PATH] [--scores-out PATH] [--latency-calls 2000]
//   runus-bench-learn score --data DIR/synth_1m.json --model MODEL.txt [--scores-out PATH] [--latency-calls 2000]
//   runus-bench-learn lr   --data DIR/synth_1m.json [--blas-threads 1]
//
// `lr` fits a table of at least 2^18 rows in row blocks on both cores (docs/decisions/0308),
// calling BLAS from each worker, so BLAS itself stays on one thread (the default of
// --blas-threads; scikit-learn's lbfgs in the same run gets OPENBLAS_NUM_THREADS=2 for its X·w
// and Xᵀ·r products and runs its elementwise loss on one thread). Everything else uses one thread.
import Foundation
import Learning

struct Options {
    var mode = ""
    var data = ""
    var rounds = 200
    var leaves = 31
    var parallel = true
    var saveLightGBM: String?
    var latencyCalls = 2_000
    var model: String?
    var blasThreads = 1
    var scoresOut: String?
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    guard let mode = args.popFirst() else { usage() }
    o.mode = mode
    while let a = args.popFirst() {
        switch a {
        case "--data": o.data = args.popFirst() ?? ""
        case "--rounds": o.rounds = Int(args.popFirst() ?? "") ?? 0
        case "--leaves": o.leaves = Int(args.popFirst() ?? "") ?? 0
        case "--serial": o.parallel = false
        case "--save-lightgbm": o.saveLightGBM = args.popFirst()
        case "--model": o.model = args.popFirst()
        case "--scores-out": o.scoresOut = args.popFirst()
        case "--blas-threads": o.blasThreads = Int(args.popFirst() ?? "") ?? 0
        case "--latency-calls": o.latencyCalls = Int(args.popFirst() ?? "") ?? 0
        default: usage()
        }
    }
    if o.data.isEmpty || o.blasThreads < 1 || o.rounds < 1 || o.leaves < 2 || o.latencyCalls < 1 { usage() }
    return o
}

func usage() -> Never {
    FileHandle.standardError.write("usage: runus-bench-learn gbdt|score|lr --data HEADER.json [--model LIGHTGBM.txt] [--blas-threads N] [--rounds N] [--leaves N] [--serial] [--save-lightgbm PATH] [--latency-calls N]\n".data(using: .utf8)!)
    exit(2)
}

/// The `.f32` rows (label in column 0) and the split described by the JSON header.
struct Dataset {
    let all: [Float]
    let rows: Int, cols: Int, train: Int
    let featureNames: [String]

    init(header path: String) throws {
        let url = URL(fileURLWithPath: path)
        let header = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        rows = header["n_rows"] as! Int
        cols = header["n_cols"] as! Int
        train = header["n_train"] as! Int
        featureNames = header["feature_names"] as! [String]
        let binary = url.deletingLastPathComponent().appendingPathComponent(header["binary_file"] as! String)
        let bytes = try Data(contentsOf: binary)
        precondition(bytes.count == rows * cols * 4, "\(binary.path): \(bytes.count) bytes, expected \(rows * cols * 4)")
        all = bytes.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: Float.self))   // little-endian host
        }
    }

    var trainTable: Float32Table { Float32Table(elements: all, rows: train, features: cols - 1, stride: cols, firstFeature: 1) }
    var testTable: Float32Table { Float32Table(elements: all, rows: rows - train, features: cols - 1, stride: cols, firstFeature: 1, firstRow: train) }
    func labels(_ t: Float32Table) -> [Double] { t.storedColumn(0) }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}
func percentile(_ xs: [Double], _ q: Double) -> Double {
    let s = xs.sorted()
    return s[min(s.count - 1, Int((q * Double(s.count - 1)).rounded()))]
}
/// Writes the raw scores of the first 1,000 test rows, one per line (shortest round-trip text),
/// for the LightGBM-on-our-model check in scripts/bench_score_lightgbm.py.
func writeScores(_ model: GradientBoostingModel, _ test: Float32Table, to path: String?) throws {
    guard let path else { return }
    let n = min(1_000, test.rowCount)
    var x = Matrix(rows: n, cols: test.featureCount)
    for i in 0..<n { for j in 0..<test.featureCount { x[i, j] = test.value(row: i, feature: j) } }
    try model.rawScores(x: x).map { "\($0)" }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
}

func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// The whole benchmark run; errors (a missing data or model file, a bad model) reach `main`.
func runBenchmark(_ options: Options) throws {
    let loadStart = now()
    let dataset = try Dataset(header: options.data)
    let train = dataset.trainTable, test = dataset.testTable
    let yTrain = dataset.labels(train), yTest = dataset.labels(test)
    let loadSeconds = now() - loadStart

    switch options.mode {
    case "gbdt":
        var c = GradientBoosting.Configuration()
        c.numIterations = options.rounds
        c.numLeaves = options.leaves
        c.learningRate = 0.1
        c.maxBin = 255
        c.parallel = options.parallel
        let cpu0 = cpuSeconds(), t0 = now()
        let model = try GradientBoosting.fit(x: train, y: yTrain, configuration: c)
        let fitSeconds = now() - t0, fitCPU = cpuSeconds() - cpu0
        let p = model.probabilities(test)
        let auc = try Metrics.rocAUC(labels: yTest, scores: p)
        let loss = try Metrics.logLoss(labels: yTest, probabilities: p)
        let latency = scoringLatency(model, test: test, calls: options.latencyCalls)
        try writeScores(model, test, to: options.scoresOut)
        if let path = options.saveLightGBM {
            try LightGBMModelText.write(model, featureNames: dataset.featureNames).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let leaves = model.trees.map(\.leafCount).reduce(0, +)
        emit(["peer": "runus_gbdt", "rows": dataset.rows, "fit_s": fitSeconds, "fit_cpu_s": fitCPU, "load_s": loadSeconds,
              "auc": auc, "logloss": loss, "trees": model.trees.count, "leaves": leaves,
              "parallel": options.parallel].merging(latency) { a, _ in a })
    case "score":
        // Scoring latency only, on a model saved by `gbdt --save-lightgbm` (LightGBM text format).
        guard let path = options.model else { usage() }
        let model = try LightGBMModelText.read(String(contentsOfFile: path, encoding: .utf8))
        let p = model.probabilities(test)
        try writeScores(model, test, to: options.scoresOut)
        emit(["peer": "runus_score", "rows": dataset.rows, "fit_s": 0.0, "load_s": loadSeconds, "trees": model.trees.count,
              "auc": try Metrics.rocAUC(labels: yTest, scores: p), "logloss": try Metrics.logLoss(labels: yTest, probabilities: p)]
             .merging(scoringLatency(model, test: test, calls: options.latencyCalls)) { a, _ in a })
    case "lr":
        var x = Matrix(rows: train.rowCount, cols: train.featureCount)
        x.withUnsafeMutableBufferPointer { xs in
            for i in 0..<train.rowCount { for j in 0..<train.featureCount { xs[i * train.featureCount + j] = train.value(row: i, feature: j) } }
        }
        var c = LogisticRegression.Configuration()
        c.l2 = 1.0   // scikit-learn C = 1
        BLASThreads.use(options.blasThreads)
        let cpu0 = cpuSeconds(), t0 = now()
        let model = try LogisticRegression.fit(x: x, y: yTrain, configuration: c)
        let fitSeconds = now() - t0, fitCPU = cpuSeconds() - cpu0
        var xt = Matrix(rows: test.rowCount, cols: test.featureCount)
        for i in 0..<test.rowCount { for j in 0..<test.featureCount { xt[i, j] = test.value(row: i, feature: j) } }
        let p = model.probabilities(x: xt)
        emit(["peer": "runus_lr", "rows": dataset.rows, "fit_s": fitSeconds, "fit_cpu_s": fitCPU, "load_s": loadSeconds,
              "auc": try Metrics.rocAUC(labels: yTest, scores: p), "logloss": try Metrics.logLoss(labels: yTest, probabilities: p),
              "iterations": model.fitReport?.iterations ?? -1, "blas_threads": options.blasThreads,
              "objective": model.fitReport?.objective ?? -1])
    default:
        usage()
    }
}

let options = parseOptions()
BLASThreads.useOne()
do {
    try runBenchmark(options)
} catch {
    FileHandle.standardError.write("runus-bench-learn \(options.mode): \(error)\n".data(using: .utf8)!)
    exit(1)
}
