import Foundation
import Testing
import RunusCore
@testable import Fuzzing

/// The request generator: seeded, covers every operation and every degenerate track, and keeps
/// the promises its lines make (terminators, ids, expectations the protocol implies).
@Suite("request generator")
struct RequestGeneratorTests {
    static let now = 1_796_000_000.0

    /// Lines at a fifth of the track lengths (what the slice sends): the same scenarios, cheaper.
    static func lines(seed: UInt64, connection: Int = 0, count: Int) -> [FuzzLine] {
        var g = RequestGenerator(.init(seed: seed, connection: connection, simulatedRunners: 20, reloadOneIn: 50, scale: 0.2))
        return (0..<count).map { _ in g.next(now: now) }
    }

    /// 20,000 lines of seed 1, shared by the coverage tests (a debug build makes ~2,500 a second).
    static let sample = lines(seed: 1, count: 20_000)

    @Test("same seed and connection, same bytes; another seed or connection, other bytes")
    func deterministic() {
        let a = Self.lines(seed: 7, count: 1000).map(\.bytes)
        #expect(a == Self.lines(seed: 7, count: 1000).map(\.bytes))
        #expect(a != Self.lines(seed: 8, count: 1000).map(\.bytes))
        #expect(a != Self.lines(seed: 7, connection: 1, count: 1000).map(\.bytes))
    }

    @Test("every operation of spec/protocol is sent, at least once in 20,000 lines")
    func coversEveryOperation() throws {
        let specs = try FileManager.default.contentsOfDirectory(atPath: Self.repository + "/spec/protocol")
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix("_") }.map { String($0.dropLast(5)) }
        #expect(Set(specs) == Set(OperationCatalog.operations), "OperationCatalog.operations and spec/protocol disagree")
        var seen = Set<String>()
        for line in Self.sample {
            if line.family.hasPrefix("param:") { seen.insert(String(line.family.dropFirst(6))) }
            // Lines that must succeed are well formed.
            guard line.expectation != .valid else { continue }
            if let op = (try? JSONParser.parse(line.answeredLines[0]))?["op"]?.stringValue { seen.insert(op) }
        }
        #expect(Set(OperationCatalog.operations).subtracting(seen).isEmpty, "never sent: \(Set(OperationCatalog.operations).subtracting(seen).sorted())")
    }

    @Test("every degenerate track kind is ingested within 20,000 lines")
    func coversEveryTrack() {
        let families = Set(Self.sample.map(\.family))
        let missing = DegenerateTracks.common.filter { !families.contains("ingest:\($0)") }
        #expect(missing.isEmpty, "never ingested: \(missing)")
    }

    @Test("lines end with LF; a line that must succeed parses, and its declared id is the one to echo")
    func promisesKept() {
        for line in Self.sample.prefix(5000) {
            #expect(line.bytes.last == 0x0A)
            guard line.expectation == .ok, line.answerCount == 1 else { continue }
            #expect(FuzzLine.echoedID(of: line.answeredLines[0]) == line.declaredID ?? .null,
                    "\(String(decoding: line.bytes.prefix(200), as: UTF8.self))")
        }
    }

    @Test("a muted trigger is not generated for runners with the required runs")
    func muting() {
        var g = RequestGenerator(.init(seed: 5, connection: 0, scale: 0.2))
        g.mute(MuteRule(trigger: "follow:missions.today", requires: ["ingest:two-fixes-20-min"]))
        var runs: [String: Set<String>] = [:]
        for _ in 0..<8000 {
            let line = g.next(now: Self.now)
            guard let user = line.user else { continue }
            if line.family == "follow:missions.today" {
                #expect(!(runs[user] ?? []).contains("ingest:two-fixes-20-min"), "muted read-back sent for \(user)")
            }
            runs[user, default: []].insert(line.family)
        }
        #expect(runs.values.filter { $0.contains("ingest:two-fixes-20-min") }.count >= 5, "too few runners to show the rule works")
    }

    @Test("max-points: 86,400 fixes in one line that fits in the default 4 MiB limit")
    func largestTrackFits() {
        var g = SeededGenerator(seed: 1)
        let track = DegenerateTracks.make("max-points", start: Self.now, lat: -33.123456789, lon: 151.987654321, &g)
        #expect(track.points.count == 86_400)
        #expect(track.json.encoded.count < 4 << 20)
    }

    /// The package root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}
