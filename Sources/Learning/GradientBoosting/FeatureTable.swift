/// Read access to a table of feature values, one row per example, for training and scoring the
/// gradient-boosted trees without first copying the data into a `Matrix` of `Double`.
///
/// Values are in each feature's own unit; NaN means "missing" (see `BinMapper`).
public protocol FeatureTable: Sendable {
    /// Number of rows (examples), >= 0.
    var rowCount: Int { get }
    /// Number of features per row, >= 0.
    var featureCount: Int { get }
    /// The value of `feature` in `row`; both 0-based and in range.
    func value(row: Int, feature: Int) -> Double
}

extension Matrix: FeatureTable {
    public var rowCount: Int { rows }
    public var featureCount: Int { cols }
    @inlinable
    public func value(row: Int, feature: Int) -> Double { elements[row * cols + feature] }
}

/// Rows of `Float` in row-major order, optionally with extra columns (e.g. a label in column 0):
/// feature j of row i is `elements[i * stride + firstFeature + j]`. This is the layout of the
/// benchmark's `.f32` files, read without conversion.
public struct Float32Table: FeatureTable {
    public let elements: [Float]
    public let rowCount: Int
    public let featureCount: Int
    /// Values per stored row, >= firstFeature + featureCount.
    public let stride: Int
    /// Index of feature 0 within a stored row, >= 0.
    public let firstFeature: Int
    /// First stored row that belongs to this table (lets a train and a test view share storage).
    public let firstRow: Int

    public init(elements: [Float], rows: Int, features: Int, stride: Int? = nil, firstFeature: Int = 0, firstRow: Int = 0) {
        let stride = stride ?? features
        precondition(rows >= 0 && features >= 0 && firstFeature >= 0 && firstRow >= 0, "negative table shape")
        precondition(stride >= firstFeature + features, "stride \(stride) < firstFeature \(firstFeature) + features \(features)")
        precondition(elements.count >= (firstRow + rows) * stride, "\(elements.count) values cannot hold \(firstRow + rows) rows of \(stride)")
        self.elements = elements
        self.rowCount = rows
        self.featureCount = features
        self.stride = stride
        self.firstFeature = firstFeature
        self.firstRow = firstRow
    }

    @inlinable
    public func value(row: Int, feature: Int) -> Double {
        Double(elements[(firstRow + row) * stride + firstFeature + feature])
    }

    /// Column `column` of rows `firstRow ..< firstRow + rows`, as Double (e.g. the label column).
    public func storedColumn(_ column: Int) -> [Double] {
        precondition(column >= 0 && column < stride, "column \(column) outside 0..<\(stride)")
        return (0..<rowCount).map { Double(elements[(firstRow + $0) * stride + column]) }
    }
}
