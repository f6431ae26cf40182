import Testing
import Foundation
import RunusCore
import Server
@testable import Service
@testable import RunusCLI

/// `runus race-loadtest` (what `make bench-scale` measures races with) against a daemon on the
/// real clock: every position it sends is matched to the ranking it caused, none is lost or
/// sent twice, and the count follows from the plan (one point a second per runner).
@Suite("race load generator", .serialized)
struct RaceLoadGeneratorTests {
    @Test("a small plan: each runner sends one point a second, and every one comes back as a ranking naming it")
    func everyPositionMatched() throws {
        let daemon = try ProductionDaemon(clock: SystemClock())
        defer { daemon.stop() }
        var plan = RaceLoadPlan(address: daemon.address, rooms: 2, runnersPerRoom: 3, duration: 2)
        plan.startDelay = 1
        let report = try RaceLoadGenerator.run(plan, wallClock: { Date().timeIntervalSince1970 })
        #expect(report.errors == 0)
        #expect(report.positionsSent == 2 * 3 * 2)
        #expect(report.updatesMatched == report.positionsSent)
        // Each position's ranking goes to the room's three watchers (and some ticks' more).
        #expect(report.pushedLines >= 3 * report.positionsSent)
        #expect(report.p50Ms > 0 && report.p50Ms <= report.p99Ms && report.p99Ms <= report.maxMs)
    }
}
