import Foundation
import Learning

/// Latency of scoring `candidates` consecutive test rows (as Double, one thread) with the flat
/// predictor, and of one row, over `calls` timed calls after 200 warm-up calls. Nothing is
/// allocated inside the timed region. Returns the JSON fields `score50_*` / `score1_*` (µs).
func scoringLatency(_ model: GradientBoostingModel, test: Float32Table, calls: Int, candidates: Int = 50) -> [String: Any] {
    let width = test.featureCount
    var block = [Double](repeating: 0, count: candidates * width)
    var out = [Double](repeating: 0, count: candidates)
    var batch: [Double] = [], single: [Double] = []
    batch.reserveCapacity(calls)
    single.reserveCapacity(calls)
    var checksum = 0.0
    for call in -200..<calls {
        let first = (max(call, 0) * candidates) % (test.rowCount - candidates)
        for i in 0..<candidates { for j in 0..<width { block[i * width + j] = test.value(row: first + i, feature: j) } }
        let s = DispatchTime.now().uptimeNanoseconds
        block.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { o in
                model.predictor.rawScores(rows: b.baseAddress!, count: candidates, stride: width, into: o.baseAddress!)
            }
        }
        let e = DispatchTime.now().uptimeNanoseconds
        checksum += out[0]
        if call >= 0 { batch.append(Double(e - s) / 1e3) }
    }
    var row = [Double](repeating: 0, count: width)
    for call in -200..<calls {
        for j in 0..<width { row[j] = test.value(row: max(call, 0) % test.rowCount, feature: j) }
        let s = DispatchTime.now().uptimeNanoseconds
        checksum += row.withUnsafeBufferPointer { model.predictor.rawScore(row: $0.baseAddress!) }
        let e = DispatchTime.now().uptimeNanoseconds
        if call >= 0 { single.append(Double(e - s) / 1e3) }
    }
    return ["score50_median_us": percentile(batch, 0.5), "score50_p99_us": percentile(batch, 0.99), "score50_min_us": batch.min()!,
            "score1_median_us": percentile(single, 0.5), "score1_p99_us": percentile(single, 0.99),
            "score_checksum": checksum]
}
