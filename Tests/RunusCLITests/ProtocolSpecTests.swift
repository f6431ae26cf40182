import Testing
import Foundation
import RunusCore
import Features
import Learning
import Engine
import Server
import Storage
@testable import Service
@testable import ModelStore
@testable import RunusCLI

/// A daemon wired as `runus serve` wires it (ModelReloader, shared Stats), on 127.0.0.1:0, with
/// one runner `runner-0001` and a model directory holding a test artifact.
final class ProductionDaemon: @unchecked Sendable {
    let dir: TemporaryDirectory
    let daemon: Daemon
    var server: LineServer { daemon.server }
    var reloader: ModelReloader { daemon.reloader }
    var races: RaceOperations { daemon.races }
    let address: ServerAddress
    let store: SQLiteStore
    /// What the store logged (stored runs repaired or skipped when read).
    let storeLog = LogSink()
    private let finished = DispatchSemaphore(value: 0)

    static func artifact(version: String, schemaHash: String = MissionFeatures.schema.hash) throws -> ModelArtifact {
        var rng = SeededGenerator(seed: 5)
        let p = MissionFeatures.schema.count
        let rows = (0..<400).map { _ in (0..<p).map { _ in rng.gaussian() } }
        let y = rows.map { $0[5] < 0.3 ? 1.0 : 0.0 }
        let model = try LogisticRegression.fit(x: Matrix(rowArrays: rows, cols: p), y: y)
        return try ModelArtifact(model: model, modelVersion: version, featureNames: MissionFeatures.schema.names,
                                 featureSchemaHash: schemaHash,
                                 training: .init(fingerprint: "test", rows: 400, seed: 5, l2: 1, iterations: 1, converged: true))
    }

    /// - Parameter clock: the daemon's clock (default 2027-01-15 17:00 in Seoul, fixed).
    init(_ name: String = #function, clock: any Clock = FixedClock(1_800_000_000),
         configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        dir = TemporaryDirectory(name)
        let storeLog = self.storeLog
        store = try SQLiteStore(path: dir.file("d.sqlite"), log: { storeLog.append($0) })
        try store.upsertUser(UserProfile(id: "runner-0001", weightKg: 58, timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        for i in 0..<12 {
            try store.insertRun(RunRecord(id: "r-\(i)", userID: "runner-0001", startTime: 1_790_000_000 + Double(i) * 172_800,
                                          distance: 6000, elapsed: 2100, moving: 2000, elevationGain: 20, source: "test"))
        }
        try ModelFiles.write(artifact: try Self.artifact(version: "test-1"), card: "test", to: dir.file("model"))
        var configuration = ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0)])
        configuration.offloadedOperations = ["model.reload"]
        configure(&configuration)
        let modelDirectory = dir.file("model")
        var wiring = DaemonConfiguration(server: configuration, store: store,
                                         loadModel: { try ModelFiles.readAny(from: modelDirectory) })
        wiring.clock = clock
        wiring.log = { _ in }
        wiring.runsRaceClock = false  // tests tick the rooms themselves
        daemon = try Daemon(wiring)
        address = try daemon.start(signals: false)[0]
        let server = daemon.server, finished = self.finished
        Thread.detachNewThread {
            try? server.run()
            finished.signal()
        }
    }

    func client() throws -> LineClient { try LineClient(address: address, timeout: .seconds(20)) }

    func stop() {
        server.stop()
        _ = finished.wait(timeout: .now() + 10)
        try? store.close()
        dir.cleanup()
    }
}

@Suite("protocol specs", .serialized)
struct ProtocolSpecTests {
    static let root = GeneratedDocsTests.root

    @Test("docs/protocol.md is rendered from spec/protocol/*.json (make protocol-docs rewrites it)")
    func documentMatchesSpecs() throws {
        let rendered = try ProtocolSpec(root: Self.root).markdown()
        let path = Self.root + "/docs/protocol.md"
        if ProcessInfo.processInfo.environment["RUNUS_WRITE_PROTOCOL_DOCS"] == "1" {
            try rendered.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == rendered)
    }

    @Test("the spec's error codes are exactly the server's closed set")
    func errorCodes() throws {
        let spec = try ProtocolSpec(root: Self.root)
        #expect(spec.errorCodes.map(\.code) == ErrorCode.allCases.map(\.rawValue))
        for op in spec.operations {
            for (code, _) in op.errors { #expect(ErrorCode(rawValue: code) != nil, "\(op.op): unknown code \(code)") }
        }
    }

    @Test("every operation the daemon serves has a spec, and every spec an operation")
    func everyOperationSpecified() throws {
        let spec = try ProtocolSpec(root: Self.root)
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let served = Set(daemon.server.router.operations + ["auth"])
        #expect(Set(spec.operations.map(\.op)) == served)
    }

    @Test("each spec's example answer, and the live answer to its example request, conform to the spec")
    func answersConform() throws {
        let spec = try ProtocolSpec(root: Self.root)
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        for op in spec.operations {
            #expect(op.exampleRequest["op"] == .string(op.op), "\(op.op): example request names another op")
            #expect(op.exampleAnswer["ok"] == true)
            #expect(ProtocolSpec.problems(op.exampleAnswer["result"] ?? .null, op.result, path: "\(op.op) example").isEmpty,
                    "\(ProtocolSpec.problems(op.exampleAnswer["result"] ?? .null, op.result, path: "\(op.op) example"))")
            guard op.liveExample else { continue }  // depends on an earlier answer (a race token)
            let answer = try client.call(op.exampleRequest)
            #expect(answer["ok"] == true, "\(op.op): \(JSONWriter.string(answer))")
            let problems = ProtocolSpec.problems(answer["result"] ?? .null, op.result, path: op.op)
            #expect(problems.isEmpty, "\(problems)")
            #expect(answer["id"] == (op.exampleRequest["id"] ?? .null))
        }
    }

    @Test("error answers name only codes the spec allows for the operation or the envelope")
    func errorAnswersConform() throws {
        let spec = try ProtocolSpec(root: Self.root)
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let envelope: Set<String> = ["bad_json", "bad_request", "internal", "unavailable", "unauthorized"]
        let bad: [(JSONValue, String)] = [
            (["op": "missions.today", "user": "nobody"], "not_found"),
            (["op": "missions.today", "user": "runner-0001", "k": 99], "bad_request"),
        ]
        for (request, code) in bad {
            let answer = try client.call(request)
            #expect(answer.errorCode == code)
            let op = try #require(spec.operations.first { .string($0.op) == request["op"] })
            #expect(envelope.union(op.errors.map(\.code)).contains(code))
        }
    }
}

extension JSONValue {
    var errorCode: String? { self["error"]?["code"]?.stringValue }
}
