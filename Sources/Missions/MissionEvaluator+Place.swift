import RunusCore
import Tracking

extension MissionEvaluator {
    /// Hills: the run record's climb (`RunMetrics.elevationGain`: hysteresis of record 0103 over
    /// the steps the record keeps, record 0153), so a drive or a lift up a hill adds nothing, and
    /// the evidence says the figure the run answer shows. Accepted from `ascentFraction` of the
    /// target (record 0211).
    static func checkHills(minAscent: Meters, run: MissionRun, tolerance: MissionTolerance, _ v: inout Verdict) {
        let gain = run.metrics.elevationGain
        let accepted = minAscent * tolerance.ascentFraction
        v.add(gain / accepted,
              "climbed \(Int(saturating: gain.rounded())) m of \(Int(saturating: minAscent.rounded())) m (\(Int(saturating: accepted.rounded())) m accepted for height error)",
              MissionEvidence(.total, value: gain, unit: "m", passed: gain >= accepted))
    }

    /// Loop: the geodesic between the first and last counted fixes (vehicle ends already cut).
    static func checkLoop(maxGap: Meters, run: MissionRun, _ v: inout Verdict) {
        let last = run.latitudes.count - 1
        let gap = Geodesy.distance(latitude1: run.latitudes[0], longitude1: run.longitudes[0],
                                   latitude2: run.latitudes[last], longitude2: run.longitudes[last])
        v.add(gap <= maxGap ? 1 : maxGap / gap,
              "finished \(Int(saturating: gap.rounded())) m from the start (limit \(Int(saturating: maxGap.rounded())) m)",
              MissionEvidence(.total, value: gap, unit: "m", passed: gap <= maxGap))
    }

    /// Explorer: the share of the counted distance lying on cells not in `visited` (record 0214).
    static func checkExplorer(minNewFraction: Double, run: MissionRun, visited: Set<GridCell>, _ v: inout Verdict) {
        var newDistance: Meters = 0, total: Meters = 0
        var newCells = Set<GridCell>()
        // Set look-ups only when the cell changes (about every 30 fixes at 1 Hz).
        var last: GridCell?, lastIsNew = false
        ExplorerGrid.forEachPiece(of: run) { cell, metres in
            total += metres
            if cell != last {
                last = cell
                lastIsNew = !visited.contains(cell)
                if lastIsNew { newCells.insert(cell) }
            }
            if lastIsNew { newDistance += metres }
        }
        let share = total > 0 ? newDistance / total : 0
        v.add(share / minNewFraction,
              "\(Int(saturating: (share * 100).rounded())) % of the distance (\(km(newDistance))) on \(newCells.count) cells "
                + "never covered before (\(Int(saturating: (minNewFraction * 100).rounded())) % asked)",
              MissionEvidence(.cells, value: share, unit: "fraction", passed: share >= minNewFraction))
    }
}
