import Foundation
import Synchronization

/// Advances the race rooms' clocks once a second (starts at start time, countdowns, cutoffs):
/// a long-running part with a `start()` and a clean `stop()`.
final class RaceClock: Sendable {
    let races: RaceOperations
    private let running = Atomic<Bool>(false)
    /// Tick interval, seconds.
    static let interval = 1.0

    init(races: RaceOperations) { self.races = races }

    func start() {
        running.store(true, ordering: .relaxed)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Self.interval)
                races.tick()
            }
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}
