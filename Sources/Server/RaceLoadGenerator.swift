#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// What `runus race-loadtest` runs: `rooms` races of `runnersPerRoom` runners, each runner on its
/// own connection (joined and watching its race), sending one new point a second.
public struct RaceLoadPlan: Sendable {
    public var address: ServerAddress
    public var rooms: Int
    public var runnersPerRoom: Int
    /// Seconds of position traffic after the start.
    public var duration: Double
    /// Seconds from creating the races to their start (joins happen in between).
    public var startDelay: Double = 5
    /// A second replica (record 0541): runner i sends through one replica and watches its race
    /// on the other, so every ranking it matches crossed between them.
    public var secondAddress: ServerAddress?

    public init(address: ServerAddress, rooms: Int, runnersPerRoom: Int, duration: Double) {
        self.address = address; self.rooms = rooms; self.runnersPerRoom = runnersPerRoom; self.duration = duration
    }
}

/// Delays from sending a position to receiving the ranking it caused (the pushed `race.ranking`
/// whose `cause` names this runner and point), in milliseconds: an upper bound on the server's
/// arrival-to-push time, since it includes both loopback hops and this client's own work.
public struct RaceLoadReport: Sendable {
    public var positionsSent = 0
    public var updatesMatched = 0
    public var pushedLines = 0
    public var errors = 0
    public var p50Ms = 0.0, p90Ms = 0.0, p99Ms = 0.0, maxMs = 0.0
    public var seconds = 0.0
}

public enum RaceLoadGenerator {
    /// Runs the plan; `wallClock` gives Unix seconds (positions carry real times).
    public static func run(_ plan: RaceLoadPlan, wallClock: () -> Double) throws -> RaceLoadReport {
        Sys.ignoreSIGPIPE()
        let total = plan.rooms * plan.runnersPerRoom
        let admin = try LineClient(address: plan.address, timeout: .seconds(30))
        defer { admin.close() }
        let start = (wallClock() + plan.startDelay).rounded(.up)
        var races: [String] = []
        for r in 0..<plan.rooms {
            // One host per room: a runner may have only a few races open at once.
            let host = "load-host-\(r)"
            _ = try admin.call(["op": "users.upsert", "user": .string(host), "time_zone": "UTC"])
            let created = try admin.call(["op": "race.create", "user": .string(host), "name": .string("load \(r)"), "distance_m": 100_000,
                                          "start_time": .number(start), "capacity": .number(Double(plan.runnersPerRoom))])
            guard let id = created["result"]?["race_id"]?.stringValue else { throw ServerError.badAnswer(JSONWriter.string(created)) }
            races.append(id)
        }
        let loop = try EventLoop()
        defer { loop.close() }
        let state = RaceLoadState()
        var runners: [RaceLoadRunner] = []
        defer { runners.forEach { $0.close() } }
        for i in 0..<total {
            let user = "load-\(i)"
            _ = try admin.call(["op": "users.upsert", "user": .string(user), "time_zone": "UTC"])
            let addresses = [plan.address] + (plan.secondAddress.map { [$0] } ?? [])
            let client = try LineClient(address: addresses[i % addresses.count], timeout: .seconds(30))
            let race = races[i / plan.runnersPerRoom]
            let joined = try client.call(["op": "race.join", "race_id": .string(race), "user": .string(user)])
            guard let token = joined["result"]?["participant_token"]?.stringValue else {
                throw ServerError.badAnswer(JSONWriter.string(joined))
            }
            // With two replicas the runner watches on the other one; its own connection's
            // answers are read and dropped.
            let watcher = addresses.count > 1 ? try LineClient(address: addresses[(i + 1) % addresses.count], timeout: .seconds(30)) : client
            _ = try watcher.call(["op": "race.watch", "race_id": .string(race)])
            let runner = RaceLoadRunner(client: client, watcher: watcher, user: user, race: race, token: token, index: i, state: state)
            runner.token = try loop.add(watcher.fileDescriptor, events: EpollBits.readable, source: runner)
            if watcher !== client {
                let drain = RaceLoadDrain(client: client, state: state)
                drain.token = try loop.add(client.fileDescriptor, events: EpollBits.readable, source: drain)
                runner.drain = drain
            }
            runners.append(runner)
        }
        // Wait for the start, reading (and dropping) the waiting events meanwhile.
        while wallClock() < start + 0.5 { try loop.runOnce(timeoutMilliseconds: 50) }
        state.pushedLines = 0
        let began = Sys.monotonicNanoseconds()
        let end = began + Int64(plan.duration * 1e9)
        // Runner i sends at i/total into each second: a steady stream, not a burst. Between
        // sends the loop waits in epoll for the next one's time, rounded up to the millisecond,
        // and then sends every runner that is due: never a spin, which on a small machine would
        // take a core from the servers it measures (each delay runs from the actual send).
        var next = 0
        let sends = Int(plan.duration.rounded(.up)) * total
        func due(_ k: Int) -> Int64 { began + Int64((Double(k / total) + Double(k % total) / Double(total)) * 1e9) }
        while next < sends, Sys.monotonicNanoseconds() < end {
            let wait = due(next) - Sys.monotonicNanoseconds()
            if wait > 0 {
                try loop.runOnce(timeoutMilliseconds: Int32(clamping: (wait + 999_999) / 1_000_000))
                continue
            }
            let now = Sys.monotonicNanoseconds()
            while next < sends, due(next) <= now {
                runners[next % total].sendPosition(at: wallClock(), elapsed: Double(next / total))
                next += 1
            }
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        let graceEnd = Sys.monotonicNanoseconds() + 2_000_000_000
        while Sys.monotonicNanoseconds() < graceEnd { try loop.runOnce(timeoutMilliseconds: 20) }
        let sorted = state.latencies.sorted()
        func q(_ p: Double) -> Double { Double(LoadReport.quantile(sorted, p)) / 1e6 }
        var report = RaceLoadReport()
        report.positionsSent = state.sent
        report.updatesMatched = sorted.count
        report.pushedLines = state.pushedLines
        report.errors = state.errors
        report.p50Ms = q(0.5); report.p90Ms = q(0.9); report.p99Ms = q(0.99); report.maxMs = Double(sorted.last ?? 0) / 1e6
        report.seconds = Double(Sys.monotonicNanoseconds() - began) / 1e9
        return report
    }
}

final class RaceLoadState {
    var latencies: [Int64] = []
    var sent = 0
    var pushedLines = 0
    var errors = 0
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    deinit { buffer.deallocate() }
}

/// One simulated runner's connection: sends positions, matches the rankings they cause.
final class RaceLoadRunner: EventSource {
    /// Where positions go, and where pushed lines come from (the same with one replica).
    let client: LineClient
    let watcher: LineClient
    /// Reads the sending connection's answers when it is not the watcher.
    var drain: RaceLoadDrain?
    let user: String
    let race: String
    let participantToken: String
    let origin: (Double, Double)
    var token: UInt64 = 0
    private let state: RaceLoadState
    private var input: [UInt8] = []
    /// Point time (ms, as sent) → monotonic send time.
    private var pending: [Int64: Int64] = [:]
    private let marker: [UInt8]

    init(client: LineClient, watcher: LineClient, user: String, race: String, token: String, index: Int, state: RaceLoadState) {
        self.client = client; self.watcher = watcher; self.user = user; self.race = race; self.participantToken = token; self.state = state
        origin = (-60 + Double(index % 1000) * 0.1, Double(index / 1000) * 0.5 - 120)
        marker = Array(#""user":""#.utf8) + Array(user.utf8) + [0x22]
    }

    func sendPosition(at now: Double, elapsed: Double) {
        let t = (now * 1000).rounded() / 1000
        let lat = origin.0 + elapsed * 3 / 111_200  // 3 m/s north
        let line: JSONValue = ["op": "race.position", "race_id": .string(race), "participant_token": .string(participantToken),
                               "points": [[.number(t), .number(lat), .number(origin.1)]]]
        pending[Int64((t * 1000).rounded())] = Sys.monotonicNanoseconds()
        state.sent += 1
        do { try client.send(line) } catch { state.errors += 1 }
    }

    func handle(events: UInt32) {
        guard let n = try? Sys.read(watcher.fileDescriptor, state.buffer.baseAddress!, state.buffer.count), n > 0 else { return }
        input.append(contentsOf: UnsafeRawBufferPointer(rebasing: state.buffer[0..<n]))
        let now = Sys.monotonicNanoseconds()
        var start = 0
        while let newline = input[start...].firstIndex(of: 0x0A) {
            let line = input[start..<newline]
            start = newline + 1
            if let causeAt = Self.find(Self.causeKey, in: line.prefix(80)) {
                state.pushedLines += 1
                // Sorted keys: {"at":…,"cause":{"point_time":T,"user":"U"},…}: ours when U is this runner.
                let head = line[(causeAt + Self.causeKey.count)...]
                guard let comma = head.firstIndex(of: 0x2C),
                      let t = Double(String(decoding: head[..<comma], as: UTF8.self)),
                      head[comma...].dropFirst().starts(with: marker) else { continue }
                if let sentAt = pending.removeValue(forKey: Int64((t * 1000).rounded())) { state.latencies.append(now - sentAt) }
            } else if line.starts(with: Array(#"{"error""#.utf8)) {
                state.errors += 1
            } else if Self.find(Self.eventKey, in: line.prefix(40)) != nil {
                state.pushedLines += 1
            }
        }
        input.removeSubrange(0..<start)
    }

    static let causeKey: [UInt8] = Array(#""cause":{"point_time":"#.utf8)
    static let eventKey: [UInt8] = Array(#""event":"#.utf8)

    /// Index of the first occurrence of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    func close() {
        client.close()
        if watcher !== client { watcher.close() }
    }
}

/// The answers on a runner's sending connection when it watches elsewhere: read, errors counted.
final class RaceLoadDrain: EventSource {
    let client: LineClient
    var token: UInt64 = 0
    private let state: RaceLoadState
    private var input: [UInt8] = []

    init(client: LineClient, state: RaceLoadState) { self.client = client; self.state = state }

    func handle(events: UInt32) {
        guard let n = try? Sys.read(client.fileDescriptor, state.buffer.baseAddress!, state.buffer.count), n > 0 else { return }
        input.append(contentsOf: UnsafeRawBufferPointer(rebasing: state.buffer[0..<n]))
        var start = 0
        while let newline = input[start...].firstIndex(of: 0x0A) {
            if input[start..<newline].starts(with: Array(#"{"error""#.utf8)) { state.errors += 1 }
            start = newline + 1
        }
        input.removeSubrange(0..<start)
    }
}
