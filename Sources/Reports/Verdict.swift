/// The plain verdict line of a two-model report (docs/decisions/0706-verdict.md): log loss
/// decides (a proper score, and the policy needs calibrated probabilities), AUC and ECE qualify.
enum Verdict {
    static func sentence(candidate a: String, reference b: String, differences d: [String: Interval], confidence: Double) -> String {
        let level = "\(Int(saturating: (confidence * 100).rounded()))%"
        guard let loss = d["log_loss"] else { return "No verdict: the log loss difference is undefined." }
        if d.values.allSatisfy({ $0.estimate == 0 && ($0.lower ?? 0) == 0 && ($0.upper ?? 0) == 0 }) {
            return "\(a) and \(b) make identical predictions on this period: no difference."
        }
        let auc = d["auc"]
        let aucText = auc.map { "AUC \(signed($0.estimate)) (\(level) CI \(range($0)))" } ?? "AUC undefined"
        let lossText = "log loss \(signed(loss.estimate)) nats (\(level) CI \(range(loss)))"
        let calibrationWorse = d["ece"].map { ($0.lower ?? 0) > 0 } ?? false
        if let upper = loss.upper, upper < 0 {
            if let auc, let aucUpper = auc.upper, aucUpper < 0 {
                return "Mixed: \(a) has lower log loss than \(b) (\(lossText)) but ranks worse (\(aucText)); look at the slices before switching."
            }
            let caveat = calibrationWorse ? " Its calibration error is higher: recalibrate before it drives the target band." : ""
            return "\(a) is better than \(b): \(lossText), \(aucText).\(caveat)"
        }
        if let lower = loss.lower, lower > 0 {
            return "\(a) is worse than \(b): \(lossText), \(aucText). Keep \(b)."
        }
        return "No clear difference between \(a) and \(b): the \(level) interval of the log loss difference spans 0 (\(lossText); \(aucText))."
    }

    static func signed(_ x: Double) -> String { (x >= 0 ? "+" : "−") + ReportFormat.number(abs(x), digits: 4) }
    static func range(_ i: Interval) -> String {
        guard let lo = i.lower, let hi = i.upper else { return "n/a" }
        return "\(ReportFormat.signedPlain(lo)) to \(ReportFormat.signedPlain(hi))"
    }
}

/// Number formatting shared by the renderers (no Foundation): fixed decimals, U+2212 minus.
enum ReportFormat {
    /// `x` with `digits` decimals, rounded half away from zero; "n/a" when not finite.
    static func number(_ x: Double, digits: Int = 3) -> String {
        guard x.isFinite else { return "n/a" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        let whole = Int(saturating: scaled / scale), fraction = Int(saturating: scaled - Double(whole) * scale)
        let sign = x < 0 && scaled != 0 ? "−" : ""
        if digits == 0 { return sign + String(whole) }
        let f = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - f.count) + f
    }

    static func signedPlain(_ x: Double, digits: Int = 4) -> String {
        x > 0 ? "+" + number(x, digits: digits) : number(x, digits: digits)
    }

    static func percent(_ x: Double, digits: Int = 1) -> String { number(x * 100, digits: digits) + "%" }

    static func integer(_ n: Int) -> String {
        let s = String(abs(n))
        var out = ""
        for (i, ch) in s.enumerated() {
            if i > 0 && (s.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "−" : "") + out
    }
}
