import Foundation

/// Numbers as the track tables print them: `decimals` places, `-` when not finite.
public enum FixedDecimals {
    public static func text(_ v: Double, _ decimals: Int) -> String {
        guard v.isFinite else { return "-" }
        return String(format: "%.\(decimals)f", v)
    }
}
