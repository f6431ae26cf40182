#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Tracking

/// A cell of the explorer grid (record 0214): rows of `ExplorerGrid.cellSize` metres of
/// latitude; each row cut into columns of the same width at the row's central latitude.
public struct GridCell: Hashable, Sendable {
    public let row: Int32
    public let column: Int32

    public init(row: Int32, column: Int32) {
        self.row = row
        self.column = column
    }
}

/// Which ground a run covered, on a grid of about 100 m × 100 m cells (record 0214).
public enum ExplorerGrid {
    /// Cell edge in metres (record 0214: larger than GPS noise of a few metres, smaller than
    /// a city block, so a parallel street counts as new ground).
    public static let cellSize: Meters = 100
    /// Metres per degree of latitude (mean; the grid only needs to be fixed, not exact).
    static let metresPerDegree = 111_320.0
    /// Segments are cut into pieces at most this long (metres) before their midpoints are binned,
    /// so a long gap between fixes spreads over the cells it crosses.
    static let pieceLength: Meters = 25

    public static func cell(latitude: Double, longitude: Double) -> GridCell {
        let row = (latitude * metresPerDegree / cellSize).rounded(.down)
        return GridCell(row: Int32(row), column: column(longitude: longitude, width: columnWidth(row: row)))
    }

    /// Column width in degrees of longitude for a row.
    static func columnWidth(row: Double) -> Double {
        let centre = (row + 0.5) * cellSize / metresPerDegree * .pi / 180
        return cellSize / (metresPerDegree * max(cos(centre), 1e-6))
    }

    static func column(longitude: Double, width: Double) -> Int32 {
        Int32(clamping: Int((longitude / width).rounded(.down)))
    }

    /// Calls `body(cell, metres)` for each piece of distance the run counted (moving, not in a
    /// vehicle), in order. O(n + distance / 25 m). Requires positions.
    static func forEachPiece(of run: MissionRun, _ body: (GridCell, Meters) -> Void) {
        precondition(run.hasPositions, "ExplorerGrid: the run has no positions")
        let d = run.metrics.profile.distances
        // Consecutive pieces nearly always share a row: its column width is computed once.
        var cachedRow = Double.nan, cachedWidth = 0.0
        for i in d.indices.dropFirst() {
            let step = d[i] - d[i - 1]
            guard step > 0 else { continue }
            let pieces = Int(saturating: (step / pieceLength).rounded(.up))
            let lat0 = run.latitudes[i - 1], lon0 = run.longitudes[i - 1]
            let dLat = run.latitudes[i] - lat0, dLon = run.longitudes[i] - lon0
            for k in 0..<pieces {
                let w = (Double(k) + 0.5) / Double(pieces)
                let row = ((lat0 + w * dLat) * metresPerDegree / cellSize).rounded(.down)
                if row != cachedRow { cachedRow = row; cachedWidth = columnWidth(row: row) }
                body(GridCell(row: Int32(row), column: column(longitude: lon0 + w * dLon, width: cachedWidth)),
                     step / Double(pieces))
            }
        }
    }

    /// The cells a run covered (what to add to the runner's visited set after the run).
    public static func cells(of run: MissionRun) -> Set<GridCell> {
        var out = Set<GridCell>()
        var last: GridCell?
        forEachPiece(of: run) { cell, _ in
            if cell != last { out.insert(cell); last = cell }
        }
        return out
    }
}
