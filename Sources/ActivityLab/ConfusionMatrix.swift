import RunusCore
import Tracking

/// Counts of windows by true and predicted `ActivityClass` (record 0145).
public struct ConfusionMatrix: Sendable, Equatable {
    /// counts[truth.rawValue][predicted.rawValue], ≥ 0.
    public private(set) var counts: [[Int]]

    public init() {
        counts = Array(repeating: Array(repeating: 0, count: ActivityClass.allCases.count), count: ActivityClass.allCases.count)
    }

    public mutating func add(truth: ActivityClass, predicted: ActivityClass, count: Int = 1) {
        counts[truth.rawValue][predicted.rawValue] += count
    }

    public static func + (a: ConfusionMatrix, b: ConfusionMatrix) -> ConfusionMatrix {
        var c = a
        for i in c.counts.indices { for j in c.counts[i].indices { c.counts[i][j] += b.counts[i][j] } }
        return c
    }

    /// Number of windows counted, ≥ 0.
    public var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }

    /// Share of windows of true class `c` predicted as `c` in [0, 1]; nil without such windows.
    public func recall(_ c: ActivityClass) -> Double? {
        let row = counts[c.rawValue].reduce(0, +)
        return row == 0 ? nil : Double(counts[c.rawValue][c.rawValue]) / Double(row)
    }

    /// Share of windows predicted `c` that are truly `c` in [0, 1]; nil when none predicted.
    public func precision(_ c: ActivityClass) -> Double? {
        let column = counts.reduce(0) { $0 + $1[c.rawValue] }
        return column == 0 ? nil : Double(counts[c.rawValue][c.rawValue]) / Double(column)
    }

    /// Binary foot (walk, run) vs vehicle counts over windows whose truth is one of them. A
    /// window predicted stationary or cycle counts as "not vehicle", i.e. foot, unless
    /// `excludingStationary` drops stationary predictions (they add nothing to a run record).
    public func footVsVehicle(excludingStationary: Bool) -> (footF1: Double, vehicleF1: Double, windows: Int) {
        var tp = 0, fp = 0, fn = 0, tn = 0     // positive = vehicle
        for truth in [ActivityClass.walk, .run, .vehicle] {
            for predicted in ActivityClass.allCases {
                if excludingStationary && predicted == .stationary { continue }
                let n = counts[truth.rawValue][predicted.rawValue]
                switch (truth == .vehicle, predicted == .vehicle) {
                case (true, true): tp += n
                case (false, true): fp += n
                case (true, false): fn += n
                case (false, false): tn += n
                }
            }
        }
        func f1(_ tp: Int, _ fp: Int, _ fn: Int) -> Double { tp == 0 ? 0 : 2 * Double(tp) / Double(2 * tp + fp + fn) }
        return (f1(tn, fn, fp), f1(tp, fp, fn), tp + fp + fn + tn)
    }

    /// A fixed-width table: rows truth, columns predicted, then recall and precision per class.
    public var table: String {
        let names = ActivityClass.allCases.map(\.description)
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        var out = pad("truth \\ predicted", 18) + names.map { pad($0, 11) }.joined() + pad("recall", 9) + "\n"
        for c in ActivityClass.allCases {
            out += pad(c.description, 18) + counts[c.rawValue].map { pad("\($0)", 11) }.joined()
            out += pad(recall(c).map { String(format3($0)) } ?? "–", 9) + "\n"
        }
        out += pad("precision", 18) + ActivityClass.allCases.map { pad(precision($0).map(format3) ?? "–", 11) }.joined() + "\n"
        return out
    }
}

/// A number in [0, 1] with three decimals, e.g. "0.957".
func format3(_ x: Double) -> String {
    let r = Int((x * 1000).rounded())
    let frac = r % 1000
    return "\(r / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
}
