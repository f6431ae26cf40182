/// Conversions from `Double` to `Int` that never trap.
///
/// `Int(x)` traps on NaN, on ±infinity and outside Int's range, and a value a client or a stored
/// run can influence may be any of these (a run of two fixes twenty minutes apart has a moving
/// time of 0 and an infinite pace). Every conversion of such a value goes through here
/// (docs/decisions/0230-run-plausibility.md lists the rule).
extension Int {
    /// Largest magnitude a saturating conversion returns: 2^53, beyond which a `Double` no longer
    /// holds every whole number, so nothing meaningful is lost by stopping there.
    public static let saturationBound = 1 << 53

    /// `x` truncated toward zero, as `Int(x)` does, but clamped to ±`saturationBound`; NaN gives 0.
    /// Round first when rounding is wanted: `Int(saturating: x.rounded())`.
    @inlinable
    public init(saturating x: Double) {
        if x.isNaN {
            self = 0
        } else if x >= Double(Int.saturationBound) {
            self = Int.saturationBound
        } else if x <= -Double(Int.saturationBound) {
            self = -Int.saturationBound
        } else {
            self = Int(x)
        }
    }
}

extension Double {
    /// `self` when it is finite and inside `range`, else the nearest bound (NaN gives `fallback`).
    /// For derived quantities that feed formulas expecting a physical range.
    @inlinable
    public func clamped(to range: ClosedRange<Double>, nan fallback: Double) -> Double {
        if isNaN { return fallback }
        return Swift.min(range.upperBound, Swift.max(range.lowerBound, self))
    }
}
