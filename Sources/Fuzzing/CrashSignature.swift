/// What a crashed process printed, reduced to what identifies the bug (record 0540): the trap
/// message and the first frame in this repository's sources. Crashes are deduplicated by
/// `key`. Reads the Swift runtime's backtracer output (`*** Swift runtime failure: …`, frames
/// `… at /…/Sources/Module/File.swift:line:column`) and the `Fatal error: …` lines of debug
/// builds.
public struct CrashSignature: Sendable, Equatable, Hashable {
    /// e.g. `Swift runtime failure: Double value cannot be converted to Int because it is either infinite or NaN`.
    public let message: String
    /// e.g. `Engine/TodayPolicy.swift:106`; `?` when no frame of ours was found.
    public let location: String
    /// The crashed thread's first frames of ours, innermost first (`function at Module/File.swift:line`).
    public let frames: [String]

    public var key: String { "\(location) \(message)" }

    /// The operation whose handler is on the crashed thread's stack, when one is: the triage
    /// replays the lines in flight for that operation first.
    public var operation: String? {
        for frame in frames {
            for (needle, op) in Self.handlers where frame.contains(needle) { return op }
        }
        return nil
    }

    /// Function names of the daemon's handlers and engine entry points, and their operations.
    static let handlers: [(String, String)] = [
        ("missionsToday", "missions.today"), ("MissionService.today", "missions.today"), ("TodayPolicy.", "missions.today"),
        ("missionsScore", "missions.score"), ("MissionService.score", "missions.score"),
        ("missionsEvaluate", "missions.evaluate"), ("missionsProgress", "missions.progress"), ("runsIngest", "runs.ingest"),
        ("RunIngestion.", "runs.ingest"), ("runsGet", "runs.get"), ("usersUpsert", "users.upsert"), ("goalsRecommend", "goals.recommend"),
        ("GoalService.", "goals.recommend"), ("HistoryService.", "history"), ("DaemonOperations.history", "history"),
        ("ProgressService.", "progress"), ("DaemonOperations.progress", "progress"), ("RaceOperations.create", "race.create"),
        ("RaceOperations.join", "race.join"), ("RaceOperations.leave", "race.leave"), ("RaceOperations.watch", "race.watch"),
        ("RaceOperations.position", "race.position"), ("RaceOperations.results", "race.results"), ("RaceOperations.list", "race.list"),
    ]

    public init(message: String, location: String, frames: [String]) {
        self.message = message
        self.location = location
        self.frames = frames
    }

    /// Parses a crashed process's standard error (the whole of it; log lines are skipped).
    public init(stderr text: String, signal: Int32?) {
        var message: String?
        var frames: [String] = []
        var inCrashedThread = false
        var sawThread = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingSpaces
            if message == nil {
                if let r = line.firstRange(of: "Swift runtime failure: ") {
                    message = "Swift runtime failure: " + line[r.upperBound...].trimmingSuffix(" ***")
                } else if let r = line.firstRange(of: "Fatal error: ") {
                    message = "Fatal error: " + line[r.upperBound...]
                } else if line.hasPrefix("💣 Program crashed: ") {
                    message = String(line.dropFirst("💣 Program crashed: ".count))
                }
            }
            if line.hasPrefix("Thread ") {
                inCrashedThread = line.hasSuffix("crashed:")
                sawThread = true
                continue
            }
            guard !sawThread || inCrashedThread, frames.count < 12, let at = line.ranges(of: " at /").last else { continue }
            let path = line[line.index(before: at.upperBound)...]
            guard let sources = path.firstRange(of: "/Sources/"), !line.contains("[system]") else { continue }
            var place = String(path[sources.upperBound...])
            // `File.swift:line:column` → `File.swift:line`
            let parts = place.split(separator: ":")
            if parts.count >= 2 { place = parts[0] + ":" + parts[1] }
            let function = line[line.startIndex..<at.lowerBound]
            frames.append("\(Self.functionName(String(function))) at \(place)")
        }
        self.message = message ?? signal.map { "signal \($0)" } ?? "no trap message"
        self.location = frames.first.map { String($0[$0.ranges(of: " at ").last!.upperBound...]) } ?? "?"
        self.frames = frames
    }

    /// For a hung process stopped with SIGABRT (`threads=all`): the frames of ours of the first
    /// thread that is working rather than waiting — its first frame of ours is not in the
    /// socket layer (event loops in epoll) or the daemon's race clock (asleep).
    public static func busyThread(in text: String) -> [String] {
        var threads: [[String]] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingSpaces
            if line.hasPrefix("Thread ") { threads.append([]); continue }
            guard !threads.isEmpty, threads[threads.count - 1].count < 12, let at = line.ranges(of: " at /").last else { continue }
            let path = line[line.index(before: at.upperBound)...]
            guard let sources = path.firstRange(of: "/Sources/"), !line.contains("[system]") else { continue }
            let parts = path[sources.upperBound...].split(separator: ":")
            let place = parts.count >= 2 ? parts[0] + ":" + parts[1] : String(path[sources.upperBound...])
            threads[threads.count - 1].append("\(functionName(String(line[line.startIndex..<at.lowerBound]))) at \(place)")
        }
        return threads.first { frames in
            guard let first = frames.first else { return false }
            return !first.contains(" at Server/") && !first.contains("ServeCommand.swift") && !first.contains("runus/main.swift")
        } ?? []
    }

    /// `  5 [ra]   0x0000… TodayPolicy.choose(state:scorer:memory:) + 3725 in runus` → the function.
    static func functionName(_ text: String) -> String {
        var s = Substring(text)
        if let x = s.firstRange(of: " 0x") {
            s = s[x.upperBound...]
            if let space = s.firstIndex(of: " ") { s = s[s.index(after: space)...] }
        }
        if let plus = s.ranges(of: " + ").last { s = s[..<plus.lowerBound] }
        if let inRange = s.ranges(of: " in ").last, !s[inRange.upperBound...].contains("(") { s = s[..<inRange.lowerBound] }
        return String(s)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\r" { s = s.dropLast() }
        return s
    }

    func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}
