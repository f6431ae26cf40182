import Foundation
import Testing
import RunusCore
import Storage

/// The ledger's invariants are the database's: unique keys say "awarded once", so that two
/// requests (threads here; replicas in production) cannot both award.
@Suite("Store conformance: XP, badges, completions and answers are recorded once")
struct LedgerConformanceTests {
    @Test("a second award for the same (user, reason, ref) is refused, whatever its id; a null ref is not a key",
          arguments: StoreKind.allCases)
    func rewardOnce(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            try store.insertReward(RewardEntry(userID: "u1", time: 1, xp: 50, reason: "run", ref: "r1"))
            let error = #expect(throws: StorageError.self) {
                try store.insertReward(RewardEntry(id: "other-id", userID: "u1", time: 2, xp: 50, reason: "run", refID: "r1"))
            }
            #expect(error?.isConstraintViolation == true)
            try store.insertReward(RewardEntry(userID: "u1", time: 1, xp: 20, reason: "mission", ref: "r1"))
            try store.insertReward(RewardEntry(id: "n1", userID: "u1", time: 3, xp: 1, reason: "bonus", refID: nil))
            try store.insertReward(RewardEntry(id: "n2", userID: "u1", time: 3, xp: 1, reason: "bonus", refID: nil))
            #expect(try store.rewards(user: "u1").map(\.xp) == [20, 50, 1, 1])  // by time, then id: "mission:r1" < "run:r1"
        }
    }

    @Test("a badge is recorded once: the second insert returns false and changes nothing", arguments: StoreKind.allCases)
    func badgeOnce(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            #expect(try store.insertBadge(BadgeAward(userID: "u1", badgeID: "first_5k", awardedAt: 10)))
            #expect(try store.insertBadge(BadgeAward(userID: "u1", badgeID: "first_5k", awardedAt: 20)) == false)
            #expect(try store.badges(user: "u1") == [BadgeAward(userID: "u1", badgeID: "first_5k", awardedAt: 10)])
        }
    }

    @Test("an ingest answer is stored once per (user, run id) and read back verbatim", arguments: StoreKind.allCases)
    func answerOnce(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let json = #"{"run_id":"r1","xp":50,"text":"é \"q\" \u0000"}"#
            try store.recordIngestAnswer(user: "u1", runID: "r1", answerJSON: json)
            #expect(try store.ingestAnswer(user: "u1", runID: "r1") == json)
            #expect(try store.ingestAnswer(user: "u1", runID: "r2") == nil)
            let error = #expect(throws: StorageError.self) {
                try store.recordIngestAnswer(user: "u1", runID: "r1", answerJSON: "{}")
            }
            #expect(error?.isConstraintViolation == true)
        }
    }

    @Test("8 threads racing to award the same XP directly: exactly one insert succeeds", arguments: StoreKind.allCases)
    func racingInserts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let seen = Observations()
            onThreads(8) { i in
                do {
                    try store.insertReward(RewardEntry(id: "w\(i)", userID: "u1", time: 1, xp: 50, reason: "race", refID: "race-1"))
                    seen.add(i)
                } catch let error as StorageError where error.isConstraintViolation {
                    // the unique key refused it
                } catch {
                    seen.fail("thread \(i): \(error)")
                }
            }
            #expect(seen.failures == [])
            #expect(seen.values.count == 1)
            #expect(try store.rewards(user: "u1").count == 1)
        }
    }

    @Test("8 threads ingesting the same run check-then-write in transactions: one run, one award, one badge, one completion, the same answer for all",
          arguments: StoreKind.allCases)
    func racingTransactions(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            try store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
            let seen = Observations()
            onThreads(8) { i in
                do {
                    // What RunIngestion does: an answer stored means the run is in; else write it all.
                    let answer = try store.transaction { () throws -> String in
                        if let stored = try store.ingestAnswer(user: "u1", runID: "r1") { return stored }
                        guard try store.insertRun(Sample.run("r1", user: "u1", start: 100)) else { throw Boom() }
                        try store.updateAssignment(user: "u1", id: "a1", status: .completed, runID: "r1", progress: 1)
                        try store.insertReward(RewardEntry(userID: "u1", time: 100, xp: 50, reason: "run", ref: "r1"))
                        try store.insertReward(RewardEntry(userID: "u1", time: 100, xp: 120, reason: "mission", ref: "a1"))
                        try store.insertBadge(BadgeAward(userID: "u1", badgeID: "first_run", awardedAt: 100, runID: "r1"))
                        let json = #"{"by":\#(i)}"#
                        try store.recordIngestAnswer(user: "u1", runID: "r1", answerJSON: json)
                        return json
                    }
                    if let by = Int(answer.filter(\.isNumber)) { seen.add(by) } else { seen.fail("thread \(i): answer \(answer)") }
                } catch {
                    seen.fail("thread \(i): \(error)")
                }
            }
            #expect(seen.failures == [])
            #expect(seen.values.count == 8)
            #expect(Set(seen.values).count == 1)  // everyone got the winner's answer
            let totals = try store.totals()
            #expect(totals.runs == 1 && totals.rewards == 2 && totals.xpSum == 170 && totals.badges == 1 && totals.ingestAnswers == 1)
            #expect(try store.assignments(user: "u1", day: Sample.day).map(\.status) == [.completed])
        }
    }
}

/// Transactions ordered by runner (record 0542): one runner's check-then-write bodies still run
/// one at a time; different runners' never refuse each other.
@Suite("Store conformance: runner transactions")
struct RunnerTransactionConformanceTests {
    @Test("8 threads ingesting the same run under the runner's lock: one run, one award, one answer for all", arguments: StoreKind.allCases)
    func sameRunner(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let seen = Observations()
            onThreads(8) { i in
                do {
                    let answer = try store.transaction(runners: ["u1"]) { () throws -> String in
                        if let stored = try store.ingestAnswer(user: "u1", runID: "r1") { return stored }
                        guard try store.insertRun(Sample.run("r1", user: "u1", start: 100)) else { throw Boom() }
                        try store.insertReward(RewardEntry(userID: "u1", time: 100, xp: 50, reason: "run", ref: "r1"))
                        let json = #"{"by":\#(i)}"#
                        try store.recordIngestAnswer(user: "u1", runID: "r1", answerJSON: json)
                        return json
                    }
                    if let by = Int(answer.filter(\.isNumber)) { seen.add(by) } else { seen.fail("thread \(i): answer \(answer)") }
                } catch {
                    seen.fail("thread \(i): \(error)")
                }
            }
            #expect(seen.failures == [])
            #expect(Set(seen.values).count == 1 && seen.values.count == 8)
            let totals = try store.totals()
            #expect(totals.runs == 1 && totals.rewards == 1 && totals.ingestAnswers == 1)
        }
    }

    @Test("8 threads, each a different runner reading their whole ledger and runs and writing 20 runs: every transaction commits",
          arguments: StoreKind.allCases)
    func differentRunners(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            for i in 0..<8 {
                try store.upsertUser(Sample.user("u\(i)"))
                for k in 0..<30 {
                    _ = try store.insertRun(Sample.run("old-\(k)", user: "u\(i)", start: Double(k) * 4000))
                    try store.insertReward(RewardEntry(userID: "u\(i)", time: Double(k) * 4000, xp: 10, reason: "run", ref: "old-\(k)"))
                }
            }
            let seen = Observations()
            onThreads(8) { i in
                for k in 0..<20 {
                    do {
                        try store.transaction(runners: ["u\(i)"]) {
                            let xp = try store.rewards(user: "u\(i)").reduce(0) { $0 + $1.xp }
                            let start = 200_000 + Double(k) * 4000
                            _ = try store.runs(user: "u\(i)", from: start - 86_400, to: start + 1)
                            guard try store.insertRun(Sample.run("new-\(k)", user: "u\(i)", start: start)) else { throw Boom() }
                            try store.insertReward(RewardEntry(userID: "u\(i)", time: start, xp: xp > 0 ? 10 : 0, reason: "run", ref: "new-\(k)"))
                        }
                        seen.add(i)
                    } catch {
                        seen.fail("runner u\(i), run \(k): \(error)")
                    }
                }
            }
            #expect(seen.failures == [], "\(seen.failures.prefix(3))")
            #expect(seen.values.count == 160)
            #expect(try store.totals().runs == 8 * 50)
        }
    }
}

@Suite("Store conformance: stored runs no run can have are repaired or left out when read")
struct CheckedReadConformanceTests {
    @Test("an impossible run is left out of every read (and logged), a repairable one is clamped; storedRuns keeps both as they are",
          arguments: StoreKind.allCases)
    func checkedReads(kind: StoreKind) throws {
        let logged = LogLines()
        try withStore(kind, log: { logged.append($0) }) { store in
            try store.upsertUser(Sample.user("u1"))
            var tooLong = Sample.run("long", user: "u1", start: 100)
            tooLong.elapsed = RunRecord.maximumStoredElapsed * 2
            var infinite = Sample.run("inf", user: "u1", start: .infinity)
            infinite.calories = nil
            var repairable = Sample.run("fix", user: "u1", start: 300)
            repairable.moving = repairable.elapsed + 60
            repairable.elevationGain = -5
            let good = Sample.run("good", user: "u1", start: 200)
            try store.transaction { for run in [tooLong, infinite, repairable, good] { try store.insertRun(run) } }

            var repaired = repairable
            repaired.moving = repairable.elapsed
            repaired.elevationGain = 0
            #expect(try store.run(user: "u1", id: "long") == nil)
            #expect(try store.run(user: "u1", id: "inf") == nil)
            #expect(try store.run(user: "u1", id: "fix") == repaired)
            #expect(try store.allRuns(user: "u1").map(\.id) == ["good", "fix"])
            #expect(try store.runs(user: "u1", from: 0, to: 1e12).map(\.id) == ["good", "fix"])
            #expect(try store.storedRuns(user: "u1") == [tooLong, good, repairable, infinite])
        }
        #expect(logged.lines.contains { $0.contains("stored_run_skipped") && $0.contains(#""run_id":"long""#) })
        #expect(logged.lines.contains { $0.contains("stored_run_skipped") && $0.contains(#""run_id":"inf""#) })
        #expect(logged.lines.contains { $0.contains("stored_run_repaired") && $0.contains(#""run_id":"fix""#) })
    }
}

/// Log lines a store wrote, from any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var _lines: [String] = []
    var lines: [String] { lock.withLock { _lines } }
    func append(_ line: String) { lock.withLock { _lines.append(line) } }
}
