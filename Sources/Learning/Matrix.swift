/// A dense matrix of `Double` in row-major order: element (i, j) lives at `elements[i * cols + j]`.
///
/// Row-major because a row is one example (one runner state × candidate mission): datasets grow
/// by appending rows, scoring reads one contiguous row, and CBLAS/LAPACKE accept row-major
/// directly (`CblasRowMajor`, `LAPACK_ROW_MAJOR`), so no transposed copy is ever needed. It is
/// also numpy's default (C order), which keeps exported data comparable with the Python peers.
/// See docs/decisions/0300-matrix-row-major.md.
public struct Matrix: Sendable, Equatable {
    /// Number of rows (examples), >= 0.
    public let rows: Int
    /// Number of columns (features), >= 0.
    public let cols: Int
    /// The row-major storage, `rows * cols` values.
    public private(set) var elements: [Double]

    /// A `rows × cols` matrix filled with `value`.
    public init(rows: Int, cols: Int, repeating value: Double = 0) {
        precondition(rows >= 0 && cols >= 0, "Matrix size \(rows)×\(cols) must be non-negative")
        self.rows = rows
        self.cols = cols
        self.elements = [Double](repeating: value, count: rows * cols)
    }

    /// A matrix over existing row-major storage; `elements.count` must be `rows * cols`.
    public init(rows: Int, cols: Int, elements: [Double]) {
        precondition(rows >= 0 && cols >= 0, "Matrix size \(rows)×\(cols) must be non-negative")
        precondition(elements.count == rows * cols,
                     "Matrix \(rows)×\(cols) needs \(rows * cols) elements, got \(elements.count)")
        self.rows = rows
        self.cols = cols
        self.elements = elements
    }

    /// A matrix from an array of rows, which must all have `cols` values (an empty array gives 0×cols).
    public init(rowArrays: [[Double]], cols: Int? = nil) {
        let width = cols ?? rowArrays.first?.count ?? 0
        var storage: [Double] = []
        storage.reserveCapacity(rowArrays.count * width)
        for (i, row) in rowArrays.enumerated() {
            precondition(row.count == width, "row \(i) has \(row.count) values, expected \(width)")
            storage.append(contentsOf: row)
        }
        self.init(rows: rowArrays.count, cols: width, elements: storage)
    }

    public subscript(row: Int, col: Int) -> Double {
        get {
            precondition(row >= 0 && row < rows && col >= 0 && col < cols, "index (\(row), \(col)) outside \(rows)×\(cols)")
            return elements[row * cols + col]
        }
        set {
            precondition(row >= 0 && row < rows && col >= 0 && col < cols, "index (\(row), \(col)) outside \(rows)×\(cols)")
            elements[row * cols + col] = newValue
        }
    }

    /// A copy of row `i` (convenience; hot loops use `withRow`).
    public func row(_ i: Int) -> [Double] {
        withRow(i) { Array($0) }
    }

    /// Calls `body` with row `i` in place, without copying.
    public func withRow<R>(_ i: Int, _ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        precondition(i >= 0 && i < rows, "row \(i) outside 0..<\(rows)")
        return try elements.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[(i * cols)..<((i + 1) * cols)]))
        }
    }

    /// Calls `body` with row `i` mutable in place, without copying.
    public mutating func withMutableRow<R>(_ i: Int, _ body: (UnsafeMutableBufferPointer<Double>) throws -> R) rethrows -> R {
        precondition(i >= 0 && i < rows, "row \(i) outside 0..<\(rows)")
        let width = cols
        return try elements.withUnsafeMutableBufferPointer { all in
            try body(UnsafeMutableBufferPointer(rebasing: all[(i * width)..<((i + 1) * width)]))
        }
    }

    /// The whole row-major storage, read-only, for BLAS calls and bulk loops.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try elements.withUnsafeBufferPointer(body)
    }

    /// The whole row-major storage, mutable, for BLAS calls and bulk loops.
    public mutating func withUnsafeMutableBufferPointer<R>(_ body: (inout UnsafeMutableBufferPointer<Double>) throws -> R) rethrows -> R {
        try elements.withUnsafeMutableBufferPointer(body)
    }

    /// The rows at `indices`, in that order (e.g. a training split).
    public func selectingRows<S: Sequence>(_ indices: S) -> Matrix where S.Element == Int {
        var storage: [Double] = []
        var count = 0
        elements.withUnsafeBufferPointer { all in
            for i in indices {
                precondition(i >= 0 && i < rows, "row \(i) outside 0..<\(rows)")
                storage.append(contentsOf: all[(i * cols)..<((i + 1) * cols)])
                count += 1
            }
        }
        return Matrix(rows: count, cols: cols, elements: storage)
    }
}
