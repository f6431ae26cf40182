#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numerically stable scalar pieces of the logistic model.
enum Logistic {
    /// `1 / (1 + e^-z)` without overflow: for z < 0 it is evaluated as `e^z / (1 + e^z)`.
    /// Result in [0, 1]; exactly 0 or 1 only when |z| > ~37 (0.5 ulp of 1) or ~745 (underflow).
    @inline(__always)
    static func sigmoid(_ z: Double) -> Double {
        if z >= 0 { return 1 / (1 + exp(-z)) }
        let e = exp(z)
        return e / (1 + e)
    }

    /// `log(1 + e^z)` without overflow or cancellation: `z + log1p(e^-z)` for z > 0.
    @inline(__always)
    static func log1pExp(_ z: Double) -> Double {
        z > 0 ? z + log1p(exp(-z)) : log1p(exp(z))
    }

    /// The log loss of one example with margin `z` and label `y` (0 or 1), in nats:
    /// `-log σ(z)` for y = 1 and `-log(1 - σ(z))` for y = 0, each as `log1pExp(∓z)` so neither
    /// side loses precision when the prediction is confident.
    @inline(__always)
    static func logLoss(margin z: Double, label y: Double) -> Double {
        y == 1 ? log1pExp(-z) : log1pExp(z)
    }

    /// `log(p / (1 - p))` for p in (0, 1).
    static func logit(_ p: Double) -> Double { log(p / (1 - p)) }
}
