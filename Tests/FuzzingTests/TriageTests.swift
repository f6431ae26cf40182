import Testing
@testable import Fuzzing

/// What the triage reads and how it shrinks: crash signatures from the runtime's backtracer, and
/// the greedy minimizer against a known answer.
@Suite("triage")
struct TriageTests {
    /// Abridged from a real `runus serve` trap (release build, SWIFT_BACKTRACE threads=all).
    static let backtrace = """
    {"event":"started","level":"info"}

    *** Signal 4: Backtracing from 0x559f11ac9e68... done ***

    *** Swift runtime failure: Double value cannot be converted to Int because it is either infinite or NaN ***

    Thread 0 "runus":

      0  0x00007f17a62a3f16 __futex_abstimed_wait_common + 198 in libc.so.6
      1 [ra] 0x0000559f11c4ed86 EventLoop.runOnce(timeoutMilliseconds:) + 437 in runus at /w/Sources/Server/EventLoop.swift:108:29

    Thread 3 crashed:

      0 [inlined] [system]      0x0000559f11ac9e68 Swift runtime failure: Double value cannot be converted to Int because it is either infinite or NaN in runus at //<compiler-generated>
      1 [inlined]               0x0000559f11ac9e68 percent #1 (_:) in static TodayPolicy.why(_:state:) in runus at /w/Sources/Engine/TodayPolicy.swift:106:48
      2                         0x0000559f11ac9e68 comparison #1 (_:_:) in static TodayPolicy.why(_:state:) + 504 in runus at /w/Sources/Engine/TodayPolicy.swift:108:21
      3 [ra]                    0x0000559f11aa9874 closure #2 in MissionService.today(user:day:count:now:refresh:) + 2115 in runus at /w/Sources/Engine/MissionService.swift:84:26

    Backtrace took 1.01s
    """

    @Test("the crashed thread's first frame of ours and the runtime's message make the key")
    func signature() {
        let s = CrashSignature(stderr: Self.backtrace, signal: 4)
        #expect(s.message == "Swift runtime failure: Double value cannot be converted to Int because it is either infinite or NaN")
        #expect(s.location == "Engine/TodayPolicy.swift:106")
        #expect(s.frames.count == 3)
        #expect(s.frames[0] == "percent #1 (_:) in static TodayPolicy.why(_:state:) at Engine/TodayPolicy.swift:106")
        #expect(s.operation == "missions.today")
        #expect(CrashSignature(stderr: "Fatal error: boom", signal: 4).message == "Fatal error: boom")
        #expect(CrashSignature(stderr: "", signal: 11).message == "signal 11")
    }

    @Test("a hang's busy thread is the one not waiting in the event loop")
    func busyThread() {
        let frames = CrashSignature.busyThread(in: Self.backtrace)
        #expect(frames.first?.hasSuffix("at Engine/TodayPolicy.swift:106") == true)
    }

    @Test("the minimizer keeps exactly what the failure needs", arguments: [[3, 97], [0, 50, 98], [98]])
    func minimizer(needed: [Int]) {
        let items = Array(0..<100)  // 99 is the trigger, last
        let (kept, probes) = Minimizer.minimize(items, maximumProbes: 400) { candidate in
            candidate.last == 99 && needed.allSatisfy(candidate.contains)
        }
        #expect(kept == needed + [99])
        #expect(probes < 200)
    }
}
