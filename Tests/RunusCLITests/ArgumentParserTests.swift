import Testing
@testable import RunusCLI

@Suite("ArgumentParser")
struct ArgumentParserTests {
    let parser = ArgumentParser(options: [
        .required("db", "PATH", help: "database"),
        .value("runners", "N", default: "200", help: "runners"),
        .optional("unix", "PATH", help: "socket"),
        .repeated("listen", "ADDR", help: "address"),
        .flag("force", help: "force"),
    ], positionals: ["LINE"])

    @Test("values, defaults, flags, repeats and positionals")
    func parsesEveryForm() throws {
        let parsed = try parser.parse(["--db", "a.sqlite", "--listen=1:2", "--force", "--listen", "3:4", "x"])
        #expect(parsed.string("db") == "a.sqlite")
        #expect(parsed.string("runners") == "200")
        #expect(try parsed.int("runners") == 200)
        #expect(parsed.string("unix") == nil)
        #expect(parsed.strings("listen") == ["1:2", "3:4"])
        #expect(parsed.flag("force"))
        #expect(parsed.positional == ["x"])
    }

    @Test("'--' ends options")
    func doubleDash() throws {
        let parsed = try parser.parse(["--db", "a", "--", "--force"])
        #expect(parsed.positional == ["--force"])
        #expect(!parsed.flag("force"))
    }

    @Test("usage errors name the option and the value", arguments: [
        (["--runners", "5"], "missing required option --db"),
        (["--db"], "--db needs a value"),
        (["--db", "a", "--nope"], "unknown option --nope"),
        (["--db", "a", "--db", "b"], "--db given more than once"),
        (["--db", "a", "--force=yes"], "--force takes no value"),
        (["--db", "a", "x", "y"], "unexpected argument 'y'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try parser.parse(arguments) }
    }

    @Test("numbers are checked against their range")
    func numericValidation() throws {
        let bad = try parser.parse(["--db", "a", "--runners", "many"])
        #expect(throws: UsageError("--runners: 'many' is not an integer")) { try bad.int("runners") }
        let out = try parser.parse(["--db", "a", "--runners", "0"])
        #expect(throws: UsageError("--runners: 0 is outside [1, 10]")) { try out.int("runners", in: 1...10) }
    }

    @Test("help lists every option with its default or requirement")
    func help() {
        let text = parser.optionsHelp()
        #expect(text.contains("--db PATH"))
        #expect(text.contains("(required)"))
        #expect(text.contains("(default: 200)"))
        #expect(text.contains("(repeatable)"))
        #expect(text.contains("--help"))
    }
}

@Suite("runus command dispatch")
struct CommandDispatchTests {
    @Test("no command and unknown commands are usage errors (64)")
    func usage() {
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: [], output: out) == .usage)
        #expect(RunusCLI.run(arguments: ["frobnicate"], output: out) == .usage)
        #expect(out.stderr.contains("unknown command 'frobnicate'"))
    }

    @Test("every command has --help that exits 0 and shows its options", arguments: RunusCLI.commands.map { $0.name })
    func helpForEveryCommand(name: String) {
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: [name, "--help"], output: out) == .success)
        #expect(out.stdout.contains("Usage: runus \(name)"))
        #expect(out.stdout.contains("--help"))
    }

    @Test("a bad option value exits 64 and names the option")
    func badValue() {
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["simulate", "--db", "/tmp/x", "--runners", "-3"], output: out)
        #expect(code == .usage)
        #expect(out.stderr.contains("--runners: -3 is outside"))
    }
}
