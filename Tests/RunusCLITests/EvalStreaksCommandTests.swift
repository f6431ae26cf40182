import Testing
@testable import RunusCLI

@Suite("runus eval-streaks")
struct EvalStreaksCommandTests {
    @Test("weights that are not positive finite days, or too many, are refused naming the bad value")
    func badWeights() {
        for (weights, message) in [("0", "'0'"), ("4,nan", "'nan'"), ("-1", "'-1'"), ("4,,8", "''"), ("inf", "'inf'"),
                                   (Array(repeating: "1", count: 21).joined(separator: ","), "not 21")] {
            let result = runCLI(["eval-streaks", "--db", "/nonexistent/x.sqlite", "--weights", weights])
            #expect(result.code != .success && result.err.contains("--weights") && result.err.contains(message),
                    "\(weights): \(result.err)")
        }
    }
}
