import Testing
@testable import RunusCLI

@Suite("runus eval-streaks")
struct EvalStreaksCommandTests {
    @Test("weights or half-lives that are not positive finite numbers, or too many, are refused naming the bad value")
    func badWeights() {
        for (weights, message) in [("0", "'0'"), ("4,nan", "'nan'"), ("-1", "'-1'"), ("4,,8", "''"), ("inf", "'inf'"),
                                   (Array(repeating: "1", count: 21).joined(separator: ","), "not 21")] {
            let result = runCLI(["eval-streaks", "--db", "/nonexistent/x.sqlite", "--weights", weights])
            #expect(result.code != .success && result.err.contains("--weights") && result.err.contains(message),
                    "\(weights): \(result.err)")
        }
        for (halfLives, message) in [("0", "'0'"), ("none,x", "'x'"), ("1e9", "'1e9'")] {
            let result = runCLI(["eval-streaks", "--db", "/nonexistent/x.sqlite", "--half-lives", halfLives])
            #expect(result.code != .success && result.err.contains("--half-lives") && result.err.contains(message),
                    "\(halfLives): \(result.err)")
        }
        // "none" is a half-life (every week the same), not a weight.
        let none = runCLI(["eval-streaks", "--db", "/nonexistent/x.sqlite", "--weights", "none"])
        #expect(none.code != .success && none.err.contains("'none'"), "\(none.err)")
    }
}
