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

@Suite("runus eval-weekly")
struct EvalWeeklyCommandTests {
    @Test("spreads, half-lives and break rules outside their ranges are refused naming the bad value")
    func badValues() {
        for (option, value, message) in [("--spreads", "-0.1", "'-0.1'"), ("--spreads", "0,nan", "'nan'"), ("--spreads", "3", "'3'"),
                                         ("--spreads", Array(repeating: "0", count: 21).joined(separator: ","), "not 21"),
                                         ("--half-lives", "0", "'0'"), ("--break-days", "1", "1.0"), ("--break-days", "7.5", "7.5"),
                                         ("--break-days", "85", "85.0"), ("--break-days", "x", "'x'")] {
            let result = runCLI(["eval-weekly", "--db", "/nonexistent/x.sqlite", option, value])
            #expect(result.code != .success && result.err.contains(option) && result.err.contains(message), "\(option) \(value): \(result.err)")
        }
        let streaks = runCLI(["eval-streaks", "--db", "/nonexistent/x.sqlite", "--break-days", "0"])
        #expect(streaks.code != .success && streaks.err.contains("--break-days"), "\(streaks.err)")
    }
}
