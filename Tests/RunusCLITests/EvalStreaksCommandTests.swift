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
                                         ("--half-lives", "0", "'0'"), ("--breaks", "gap:1", "'gap:1'"), ("--breaks", "gap:7.5", "'gap:7.5'"),
                                         ("--breaks", "weeks,gap:85", "'gap:85'"), ("--breaks", "x", "'x'"), ("--breaks", "chain:0:13", "'chain:0:13'"),
                                         ("--breaks", "chain:0.01:nan", "'chain:0.01:nan'"), ("--breaks", "chain:0.6:13", "'chain:0.6:13'"),
                                         ("--breaks", "chain:0.01", "'chain:0.01'"), ("--breaks", "weeks:1", "'weeks:1'"),
                                         ("--breaks", "chain:0.01:0.5", "'chain:0.01:0.5'")] {
            let result = runCLI(["eval-weekly", "--db", "/nonexistent/x.sqlite", option, value])
            #expect(result.code != .success && result.err.contains(option) && result.err.contains(message), "\(option) \(value): \(result.err)")
        }
        let streaks = runCLI(["eval-streaks", "--db", "/nonexistent/x.sqlite", "--breaks", "weeks,"])
        #expect(streaks.code != .success && streaks.err.contains("--breaks") && streaks.err.contains("''"), "\(streaks.err)")
    }

    @Test("--model names a directory without a model, before any store is read")
    func missingModel() {
        for command in ["eval-streaks", "eval-weekly"] {
            let result = runCLI([command, "--db", "/nonexistent/x.sqlite", "--model", "/nonexistent/model-dir"])
            #expect(result.code != .success && result.err.contains("/nonexistent/model-dir"), "\(command): \(result.err)")
        }
    }
}
