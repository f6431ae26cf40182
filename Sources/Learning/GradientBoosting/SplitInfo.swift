/// The best split found for one leaf: which feature, at which bin, where missing values go, and
/// the sums on each side (LightGBM's `SplitInfo`).
struct SplitInfo: Sendable, Equatable {
    /// Feature index, 0-based.
    var feature: Int
    /// Rows with bin <= `thresholdBin` go left (raw test: value <= upperBounds[thresholdBin]).
    var thresholdBin: Int
    /// Whether the missing-value bin goes left.
    var defaultLeft: Bool
    /// Loss reduction of the split, > `minGainToSplit` (units of Σg²/Σh, i.e. nats × weight).
    var gain: Double
    var leftGradient: Double, leftHessian: Double, leftCount: Int
    var rightGradient: Double, rightHessian: Double, rightCount: Int
}

/// Searches a leaf's histograms for its best split: one cumulative scan per feature over its
/// bins, O(features × bins), trying both directions for the missing bin when the leaf has
/// missing values. Gain of a split with sums (G_L, H_L), (G_R, H_R) out of (G, H):
///
///     G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ)
///
/// (LightGBM's `GetSplitGains` with `lambda_l1 = 0`, no `max_delta_step`, no path smoothing).
struct Splitter {
    let mappers: [BinMapper]
    let featureOffsets: [Int]
    /// λ, L2 penalty on leaf values, >= 0.
    let lambdaL2: Double
    /// Minimum rows on each side, >= 1.
    let minDataInLeaf: Int
    /// Minimum Σh on each side, >= 0.
    let minSumHessianInLeaf: Double
    /// Minimum gain of a split, >= 0 (LightGBM's `min_gain_to_split`).
    let minGainToSplit: Double

    /// −G/(H + λ): the leaf value minimising the second-order loss, before shrinkage.
    func leafOutput(gradient: Double, hessian: Double) -> Double {
        -gradient / (hessian + lambdaL2)
    }

    func leafGain(_ g: Double, _ h: Double) -> Double { g * g / (h + lambdaL2) }

    /// The best split of a leaf with sums (`gradient`, `hessian`, `count`) whose histograms are
    /// `histogram`, over the features where `featureUsed` is true; nil when no split satisfies
    /// the constraints. Ties keep the first candidate (lowest feature, lowest bin, missing right).
    func bestSplit(histogram: UnsafePointer<Double>, gradient: Double, hessian: Double, count: Int,
                   featureUsed: [Bool]) -> SplitInfo? {
        let parentGain = leafGain(gradient, hessian)
        var best: SplitInfo?
        var bestGain = parentGain + minGainToSplit
        let minData = minDataInLeaf, minHess = minSumHessianInLeaf
        for j in 0..<mappers.count where featureUsed[j] {
            let mapper = mappers[j]
            let bins = mapper.upperBounds.count
            if bins < 2 { continue }
            let base = histogram + featureOffsets[j] * HistogramBuilder.valuesPerBin
            var mg = 0.0, mh = 0.0, mc = 0
            if mapper.hasMissing {
                let m = base + bins * HistogramBuilder.valuesPerBin
                mg = m[0]; mh = m[1]; mc = Int(m[2])
            }
            var lg = 0.0, lh = 0.0, lc = 0
            for t in 0..<(bins - 1) {
                let b = base + t * HistogramBuilder.valuesPerBin
                lg += b[0]; lh += b[1]; lc += Int(b[2])
                for side in 0..<(mc > 0 ? 2 : 1) {
                    let missingLeft = side == 1
                    let xg = missingLeft ? lg + mg : lg
                    let xh = missingLeft ? lh + mh : lh
                    let xc = missingLeft ? lc + mc : lc
                    let rc = count - xc
                    if xc < minData || rc < minData { continue }
                    let rg = gradient - xg, rh = hessian - xh
                    if xh < minHess || rh < minHess { continue }
                    let gain = leafGain(xg, xh) + leafGain(rg, rh)
                    if gain > bestGain {
                        bestGain = gain
                        best = SplitInfo(feature: j, thresholdBin: t, defaultLeft: missingLeft, gain: gain - parentGain,
                                         leftGradient: xg, leftHessian: xh, leftCount: xc,
                                         rightGradient: rg, rightHessian: rh, rightCount: rc)
                    }
                }
            }
        }
        return best
    }
}
