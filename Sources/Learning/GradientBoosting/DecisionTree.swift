/// One regression tree in LightGBM's layout: `leafCount` leaves and `leafCount − 1` internal
/// nodes in parallel arrays. A child index >= 0 is an internal node, a negative one is `~leaf`.
/// Leaf values are raw-score contributions (log-odds), with shrinkage already applied.
///
/// This is the descriptive form (what training produced, what artifacts and the LightGBM text
/// format store, with gains and counts); scoring uses the flat `TreePredictor` built from it.
public struct DecisionTree: Sendable, Equatable {
    /// LightGBM `decision_type` bit: missing values go to the left child.
    public static let defaultLeftMask: UInt8 = 2
    /// Missing-value handling in bits 2–3 of `decision_type` (LightGBM's `MissingType`).
    public enum MissingType: UInt8, Sendable {
        /// NaN is replaced by 0.0, then compared.
        case none = 0
        /// |value| <= 1e-35 (and NaN) follow the default direction.
        case zero = 1
        /// NaN follows the default direction.
        case nan = 2
    }
    /// LightGBM's `kZeroThreshold`: values with |v| <= this count as zero for `MissingType.zero`.
    public static let zeroThreshold = 1e-35

    /// Number of leaves, >= 1.
    public var leafCount: Int
    /// Per internal node: feature index, threshold (go left when value <= threshold, see
    /// docs/decisions/0310), decision type, children, split gain (loss reduction, >= 0),
    /// node value (log-odds, shrunk), Σ hessian and row count of the node.
    public var splitFeature: [Int]
    public var threshold: [Double]
    public var decisionType: [UInt8]
    public var leftChild: [Int]
    public var rightChild: [Int]
    public var splitGain: [Double]
    public var internalValue: [Double]
    public var internalWeight: [Double]
    public var internalCount: [Int]
    /// Per leaf: value (log-odds contribution), Σ hessian, row count.
    public var leafValue: [Double]
    public var leafWeight: [Double]
    public var leafDataCount: [Int]
    /// Learning rate applied to this tree's values, in (0, 1].
    public var shrinkage: Double

    /// A tree with a single leaf of value `value`.
    public init(constant value: Double, weight: Double = 0, count: Int = 0, shrinkage: Double = 1) {
        self.init(leafCount: 1, splitFeature: [], threshold: [], decisionType: [], leftChild: [], rightChild: [],
                  splitGain: [], internalValue: [], internalWeight: [], internalCount: [],
                  leafValue: [value], leafWeight: [weight], leafDataCount: [count], shrinkage: shrinkage)
    }

    public init(leafCount: Int, splitFeature: [Int], threshold: [Double], decisionType: [UInt8],
                leftChild: [Int], rightChild: [Int], splitGain: [Double], internalValue: [Double],
                internalWeight: [Double], internalCount: [Int], leafValue: [Double], leafWeight: [Double],
                leafDataCount: [Int], shrinkage: Double) {
        self.leafCount = leafCount
        self.splitFeature = splitFeature
        self.threshold = threshold
        self.decisionType = decisionType
        self.leftChild = leftChild
        self.rightChild = rightChild
        self.splitGain = splitGain
        self.internalValue = internalValue
        self.internalWeight = internalWeight
        self.internalCount = internalCount
        self.leafValue = leafValue
        self.leafWeight = leafWeight
        self.leafDataCount = leafDataCount
        self.shrinkage = shrinkage
    }

    /// Whether a row with `value` at node `node`'s feature goes left (LightGBM's `NumericalDecision`).
    @inlinable
    public static func goesLeft(_ value: Double, threshold: Double, decisionType: UInt8) -> Bool {
        let missing = (decisionType >> 2) & 3
        var v = value
        if v.isNaN && missing != MissingType.nan.rawValue { v = 0 }
        if (missing == MissingType.zero.rawValue && abs(v) <= zeroThreshold)
            || (missing == MissingType.nan.rawValue && v.isNaN) {
            return decisionType & defaultLeftMask != 0
        }
        return v <= threshold
    }

    /// The leaf reached by a row whose feature j has value `value(j)`.
    public func leaf(_ value: (Int) -> Double) -> Int {
        if leafCount == 1 { return 0 }
        var node = 0
        while node >= 0 {
            node = Self.goesLeft(value(splitFeature[node]), threshold: threshold[node], decisionType: decisionType[node])
                ? leftChild[node] : rightChild[node]
        }
        return ~node
    }

    /// This tree's contribution (log-odds) for a row whose feature j has value `value(j)`.
    public func value(_ value: (Int) -> Double) -> Double { leafValue[leaf(value)] }

    /// Adds `bias` to every leaf and node value (LightGBM's `AddBias`, used to fold the initial
    /// score into the first tree).
    mutating func addBias(_ bias: Double) {
        for k in leafValue.indices { leafValue[k] += bias }
        for k in internalValue.indices { internalValue[k] += bias }
    }
}
