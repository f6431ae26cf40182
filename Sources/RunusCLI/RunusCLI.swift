#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Datasets

/// The `runus` command: dispatches to sub-commands, prints help, maps errors to exit codes.
public enum RunusCLI {
    public static let version = RunusVersion.current

    static let commands: [any Command.Type] = [
        SimulateCommand.self, TrainCommand.self, ServeCommand.self, CallCommand.self, LoadtestCommand.self, FeaturesCommand.self,
        TrackCommand.self, MetricsAliasCommand.self, ReferenceCheckCommand.self, EvalRaceTimesCommand.self, EvalStreaksCommand.self, EvalWeeklyCommand.self, SimulatePolicyCommand.self,
        SegmentationCommand.self, SegmentationModelCommand.self, RaceLoadtestCommand.self, MissionCommand.self, ReportCommand.self,
        ImportCommand.self, LabelsCommand.self, ModelsCommand.self, DbCommand.self,
    ]

    /// Entry point of the executable.
    public static func main(arguments: [String]) -> Never {
        let code = run(arguments: arguments, output: StandardStreams())
        exit(code.rawValue)
    }

    /// Runs one command line and returns its exit code (testable: nothing exits).
    public static func run(arguments: [String], output: OutputSink) -> ExitCode {
        guard let first = arguments.first else {
            output.err(overview())
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                output.out(command.help())
            } else {
                output.out(overview())
            }
            return .success
        }
        if first == "--version" {
            output.out("runus \(version)\n")
            return .success
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            output.err("runus: unknown command '\(first)'\n\n" + overview())
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            output.out(command.help())
            return .success
        }
        do {
            let parsed = try command.parser.parse(rest)
            return try command.run(parsed, output: output)
        } catch let error as UsageError {
            output.err("runus \(command.name): \(error.message)\nUsage: runus \(command.name) \(command.usage)\n"
                       + "Run 'runus \(command.name) --help' for details.\n")
            return .usage
        } catch {
            output.err("runus \(command.name): \(error)\n")
            return .failure
        }
    }

    static func overview() -> String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { "  \($0.name)" + String(repeating: " ", count: width - $0.name.count + 2) + $0.abstract }
        return """
        runus \(version): the RunUs missions engine.

        Usage: runus COMMAND [OPTIONS]

        Commands:
        \(list.joined(separator: "\n"))

        Run 'runus COMMAND --help' for a command's options.

        """
    }
}
