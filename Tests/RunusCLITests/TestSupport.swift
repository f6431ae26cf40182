import Foundation
import RunusCore
@testable import RunusCLI

/// A fresh directory under /tmp, removed by `cleanup()`.
struct TemporaryDirectory {
    let path: String

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "runus-\(safe)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

/// Runs one `runus` command line in process: its exit code, stdout and stderr.
func runCLI(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
    let output = CapturedOutput()
    let code = RunusCLI.run(arguments: arguments, output: output)
    return (code, output.stdout, output.stderr)
}
