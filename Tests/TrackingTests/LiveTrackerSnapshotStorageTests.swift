import Testing
import RunusCore
@testable import Tracking

/// A replayed snapshot reads the decided profile either from one contiguous copy (while the
/// decided entries are at most `historyCopyFactor` times the undecided tail) or through an
/// overlay (record 0163). Both must give the same record, bit for bit (no tolerance: the same
/// arithmetic on the same numbers), and the copy must stay O(tail), so that a snapshot after
/// every fix of a long run does not cost the run.
@Suite("Live tracker snapshot storage")
struct LiveTrackerSnapshotStorageTests {
    @Test("the copied history and the overlay give the same snapshot; the copy stays O(tail)", arguments: [31] as [UInt64])
    func bothStorages(seed: UInt64) {
        // 200 minutes at 1 Hz with pauses, spikes, car, bus and sprint legs (RandomRuns).
        let points = RandomRuns.track(seed: seed, minutes: 200, interval: 1)
        var live = LiveTracker()
        var compared = 0, copied = 0, overlaid = 0, maxCopy = 0
        for (n, p) in points.enumerated() {
            live.append(p)
            if live.copiesHistory {
                copied += 1
                maxCopy = max(maxCopy, live.decidedEntries)
                #expect(live.decidedEntries <= LiveTracker.historyCopyFactor * live.undecided)
            } else {
                overlaid += 1
            }
            // Every 97th prefix (about 120 of them, both regimes), and the last one.
            guard n % 97 == 0 || n == points.count - 1 else { continue }
            compared += 1
            let viaCopy = live.replayedSnapshot(contiguous: true), viaOverlay = live.replayedSnapshot(contiguous: false)
            #expect(viaCopy == viaOverlay, "prefix \(n + 1): copy \(viaCopy) vs overlay \(viaOverlay)")
            #expect(live.snapshot() == (live.copiesHistory ? viaCopy : viaOverlay))
        }
        let batch = RunMetrics(track: Track(points: points))
        #expect(live.snapshot() == LiveMetrics(batch, effortDistances: live.effortDistances))
        // Both regimes occur: once the decided history is past `historyCopyFactor` times the
        // tail's bound (~1,300 fixes), the overlay is used whatever the run's length.
        #expect(copied > 0 && overlaid > 0 && !live.copiesHistory, "copied \(copied), overlaid \(overlaid)")
        #expect(maxCopy <= LiveTracker.historyCopyFactor * 1_300, "largest copy \(maxCopy) entries")
        #expect(compared > 100)
    }
}
