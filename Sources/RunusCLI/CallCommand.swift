import RunusCore
import Server
#if canImport(Glibc)
import Glibc
#endif

/// `runus call`: sends request lines to a daemon and prints the answers.
enum CallCommand: Command {
    static let name = "call"
    static let abstract = "Send request lines to a running daemon and print its answers."
    static let usage = "[--addr ADDRESS] [--token-file PATH] [LINE ...]"
    static let discussion = """
    Each LINE argument is sent as one request; without LINE arguments, request lines are read
    from stdin. Answers are printed one per line, in order. Exits 1 if any answer has "ok":false.
    ADDRESS is host:port, unix:/path or /path.
    """
    static let parser = ArgumentParser(options: [
        .value("addr", "ADDRESS", default: "127.0.0.1:7878", help: "Daemon address."),
        .value("timeout", "SECONDS", default: "30", help: "Time to wait for each answer (0.1-3600)."),
        .optional("token-file", "PATH", help: "Token to 'auth' with first (TCP to a daemon with --token-file)."),
    ], positionals: ["LINE..."], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let address = try ServeCommand.parseAddress(try arguments.require("addr"))
        let seconds = try arguments.double("timeout", in: 0.1...3600)!
        var lines = arguments.positional
        if lines.isEmpty {
            while let line = readLine(strippingNewline: true) {
                if !line.trimmingWhitespace().isEmpty { lines.append(line) }
            }
        }
        guard !lines.isEmpty else { throw UsageError("no request lines (give LINE arguments or pipe them on stdin)") }
        let client: LineClient
        do {
            client = try LineClient(address: address, timeout: .milliseconds(Int64(seconds * 1000)))
        } catch {
            throw CLIError("cannot connect to \(address): \(error) (is 'runus serve' running?)")
        }
        defer { client.close() }
        if let path = arguments.string("token-file"), case .tcp = address {
            let token = String(decoding: try ServeCommand.readToken(path), as: UTF8.self)
            let answer = try client.call(["op": "auth", "token": .string(token)])
            guard answer["ok"]?.boolValue == true else { throw CLIError("auth refused: \(JSONWriter.string(answer))") }
        }
        var failed = false
        for line in lines {
            try client.send(line: line)
        }
        for _ in lines {
            guard let answer = try client.readLine() else { throw CLIError("the daemon closed the connection") }
            let text = String(decoding: answer, as: UTF8.self)
            if let value = try? JSONParser.parse(answer), value["ok"]?.boolValue == false { failed = true }
            output.out(text + "\n")
        }
        return failed ? .failure : .success
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
