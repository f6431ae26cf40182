import RunusCLI

// Wiring only: everything testable lives in RunusCLI.
RunusCLI.main(arguments: Array(CommandLine.arguments.dropFirst()))
