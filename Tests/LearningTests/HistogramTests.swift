import RunusCore
import Testing
@testable import Learning

@Suite("Binning and histograms")
struct HistogramTests {
    static let data = SyntheticTrees.make(rows: 20_000, seed: 3)

    @Test("every value lands in the bin whose bounds hold it; NaN in the missing bin; at most max_bin bins")
    func binMapperBounds() {
        let dataset = BinnedDataset(Self.data.x, maxBin: 63, minDataInBin: 3, sampleCount: 2_000, seed: 1, parallel: true)
        for j in 0..<Self.data.x.cols {
            let m = dataset.mappers[j]
            #expect(m.upperBounds.count <= 63)
            #expect(zip(m.upperBounds, m.upperBounds.dropFirst()).allSatisfy { $0 < $1 })
            for i in 0..<Self.data.x.rows {
                let v = Self.data.x[i, j]
                let b = dataset.bin(row: i, feature: j)
                if v.isNaN && m.hasMissing {
                    #expect(b == m.missingBin)
                } else {
                    let u = v.isNaN ? 0 : v
                    #expect(u <= m.upperBounds[b])
                    #expect(b == 0 || u > m.upperBounds[b - 1])
                }
            }
        }
        #expect(dataset.mappers[3].upperBounds.count == 2)   // the binary feature: one boundary at 0.5
        #expect(dataset.mappers[3].upperBounds[0] == 0.5)
        #expect(dataset.mappers[4].hasMissing)
        #expect(!dataset.mappers[0].hasMissing)
    }

    @Test("few distinct values get a bin each, many get near-equal counts")
    func binMapperShapes() {
        let few = BinMapper.fit(sample: [1, 1, 1, 2, 2, 2, 3, 3, 3, .nan], maxBin: 255, minDataInBin: 3)
        #expect(few.upperBounds == [1.5, 2.5, .infinity])
        #expect(few.hasMissing && few.binCount == 4 && few.bin(.nan) == 3)
        let many = BinMapper.fit(sample: (0..<10_000).map(Double.init), maxBin: 10, minDataInBin: 3)
        #expect(many.upperBounds.count == 10)
        var counts = [Int](repeating: 0, count: 10)
        for v in 0..<10_000 { counts[many.bin(Double(v))] += 1 }
        #expect(counts.allSatisfy { abs($0 - 1_000) <= 1 })
    }

    @Test("histograms equal naive per-bin sums, on one chunk and two; the sibling by subtraction too")
    func histogramOracle() {
        let dataset = BinnedDataset(Self.data.x, maxBin: 255, minDataInBin: 3, sampleCount: 200_000, seed: 1, parallel: true)
        var rng = SeededGenerator(seed: 5)
        let n = dataset.rows
        let g = (0..<n).map { _ in rng.uniform() - 0.5 }, h = (0..<n).map { _ in rng.uniform() * 0.25 }
        let parentRows = (0..<n).map { Int32($0) }
        let childRows = parentRows.filter { $0 % 3 == 0 }
        let siblingRows = parentRows.filter { $0 % 3 != 0 }
        let builder = HistogramBuilder(data: dataset, parallel: true)
        defer { builder.deallocate() }
        let size = builder.valueCount
        func naive(_ rows: [Int32]) -> [Double] {
            var out = [Double](repeating: 0, count: size)
            for r in rows.map(Int.init) {
                for j in 0..<dataset.features {
                    let k = (dataset.featureOffsets[j] + dataset.bin(row: r, feature: j)) * 3
                    out[k] += g[r]; out[k + 1] += h[r]; out[k + 2] += 1
                }
            }
            return out
        }
        func built(_ rows: [Int32]) -> [Double] {
            var out = [Double](repeating: .nan, count: size)
            rows.withUnsafeBufferPointer { r in
                out.withUnsafeMutableBufferPointer { o in
                    interleaved(g, h).withUnsafeBufferPointer { gh in
                        builder.build(into: o.baseAddress!, rows: r.baseAddress!, count: r.count, pairs: gh.baseAddress!)
                    }
                }
            }
            return out
        }
        // Tolerance: two-chunk sums are added in another order than the naive loop; 1e-9 is far
        // above that rounding (sums of ≤ 20,000 terms of size ≤ 0.5) and far below any bin's value.
        let tolerance = 1e-9
        let parent = built(parentRows)       // 20,000 rows: two chunks
        let child = built(childRows)         // 6,667 rows: one chunk
        #expect(zip(parent, naive(parentRows)).allSatisfy { abs($0 - $1) <= tolerance })
        #expect(zip(child, naive(childRows)).allSatisfy { abs($0 - $1) <= tolerance })
        var sibling = parent
        child.withUnsafeBufferPointer { c in
            sibling.withUnsafeMutableBufferPointer { s in builder.subtract(c.baseAddress!, from: s.baseAddress!) }
        }
        #expect(zip(sibling, naive(siblingRows)).allSatisfy { abs($0 - $1) <= tolerance })
    }

    @Test("every histogram path (consecutive run, col-wise, row-wise records) on one core or two equals per-bin sums in row order exactly")
    func histogramPathsExact() {
        let dataset = BinnedDataset(Self.data.x, maxBin: 255, minDataInBin: 3, sampleCount: 200_000, seed: 1, parallel: true)
        var rng = SeededGenerator(seed: 9)
        let n = dataset.rows
        let gh = (0..<(2 * n)).map { k in k % 2 == 0 ? rng.uniform() - 0.5 : rng.uniform() * 0.25 }
        let size = dataset.totalBins * HistogramBuilder.valuesPerBin
        // The oracle adds rows in increasing order, as every path does per bin, so no tolerance.
        func naive(_ rows: [Int32]) -> [Double] {
            var out = [Double](repeating: 0, count: size)
            for r in rows.map(Int.init) {
                for j in 0..<dataset.features {
                    let k = (dataset.featureOffsets[j] + dataset.bin(row: r, feature: j)) * 3
                    out[k] += gh[2 * r]; out[k + 1] += gh[2 * r + 1]; out[k + 2] += 1
                }
            }
            return out
        }
        let subsets: [[Int32]] = [
            (0..<Int32(n)).map { $0 },                                  // the root: a run
            (3_000..<Int32(9_000)).map { $0 },                          // a run inside the data
            (0..<Int32(n)).filter { $0 % 3 != 1 },                      // dense, scattered: col-wise, two cores
            (0..<Int32(n)).filter { $0 % 7 == 2 },                      // col-wise, one core
            (0..<Int32(n)).filter { $0 % 41 == 5 },                     // < rows / 16: row-wise records
            [17],
        ]
        for parallel in [false, true] {
            let builder = HistogramBuilder(data: dataset, parallel: parallel)
            defer { builder.deallocate() }
            for rows in subsets {
                var out = [Double](repeating: .nan, count: size)
                rows.withUnsafeBufferPointer { r in
                    out.withUnsafeMutableBufferPointer { o in
                        gh.withUnsafeBufferPointer { builder.build(into: o.baseAddress!, rows: r.baseAddress!, count: r.count, pairs: $0.baseAddress!) }
                    }
                }
                #expect(out == naive(rows), "\(rows.count) rows, parallel \(parallel)")
            }
        }
    }

    @Test("the splitter finds the same best split as a brute-force search over raw rows")
    func splitterOracle() {
        let dataset = BinnedDataset(Self.data.x, maxBin: 31, minDataInBin: 3, sampleCount: 200_000, seed: 1, parallel: false)
        let y = Self.data.y
        let prior = y.reduce(0, +) / Double(y.count)
        let g = y.map { prior - $0 }, h = y.map { _ in prior * (1 - prior) }
        let splitter = Splitter(mappers: dataset.mappers, featureOffsets: dataset.featureOffsets, lambdaL2: 1,
                                minDataInLeaf: 20, minSumHessianInLeaf: 1e-3, minGainToSplit: 0)
        let builder = HistogramBuilder(data: dataset, parallel: false)
        defer { builder.deallocate() }
        var hist = [Double](repeating: 0, count: builder.valueCount)
        let rows = (0..<dataset.rows).map { Int32($0) }
        rows.withUnsafeBufferPointer { r in
            hist.withUnsafeMutableBufferPointer { o in
                builder.build(into: o.baseAddress!, rows: r.baseAddress!, count: r.count, pairs: interleaved(g, h))
            }
        }
        let G = g.reduce(0, +), H = h.reduce(0, +)
        let split = hist.withUnsafeBufferPointer {
            splitter.bestSplit(histogram: $0.baseAddress!, gradient: G, hessian: H, count: dataset.rows,
                               featureUsed: [Bool](repeating: true, count: dataset.features))
        }
        // Brute force: every (feature, threshold, missing side), sums straight from the rows.
        var bestGain = -Double.infinity, best: (Int, Double, Bool)?
        for j in 0..<dataset.features {
            let m = dataset.mappers[j]
            for t in 0..<(m.upperBounds.count - 1) {
                for missingLeft in [false, true] {
                    var lg = 0.0, lh = 0.0, lc = 0
                    for i in 0..<dataset.rows {
                        let v = Self.data.x[i, j]
                        let left = v.isNaN && m.hasMissing ? missingLeft : (v.isNaN ? 0 : v) <= m.upperBounds[t]
                        if left { lg += g[i]; lh += h[i]; lc += 1 }
                    }
                    if lc < 20 || dataset.rows - lc < 20 { continue }
                    let gain = lg * lg / (lh + 1) + (G - lg) * (G - lg) / (H - lh + 1) - G * G / (H + 1)
                    if gain > bestGain + 1e-9 { bestGain = gain; best = (j, m.upperBounds[t], missingLeft) }
                }
            }
        }
        let s = try! #require(split)
        #expect(s.feature == best!.0)
        #expect(dataset.mappers[s.feature].upperBounds[s.thresholdBin] == best!.1)
        // Tolerance: histogram sums versus row sums differ by rounding only.
        #expect(abs(s.gain - bestGain) <= 1e-6 * bestGain)
    }
}

/// (g, h) pairs in the layout `HistogramBuilder.build` reads.
func interleaved(_ g: [Double], _ h: [Double]) -> [Double] {
    var out: [Double] = []
    for i in g.indices { out.append(g[i]); out.append(h[i]) }
    return out
}
