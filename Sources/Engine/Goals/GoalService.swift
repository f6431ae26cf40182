import RunusCore
import Features

/// `goals.recommend`: a suggested custom run and personal race-time predictions.
public struct GoalService: Sendable {
    let store: any EngineStore
    public let predictor: RaceTimePredictor

    /// A suggested run is 10 % longer than the runner's endurance, at 10 % slower than predicted
    /// race pace over that distance: a steady, achievable stretch.
    public static let distanceFactor = 1.1
    public static let paceFactor = 1.1

    public init(store: any EngineStore, predictor: RaceTimePredictor = RaceTimePredictor()) {
        self.store = store; self.predictor = predictor
    }

    public struct Goals: Sendable, Equatable {
        public let distance: Meters
        public let duration: Seconds
        public let pace: SecondsPerKm
        /// (name, distance m, predicted time s) for 5K to marathon; empty without history.
        public let predictions: [(name: String, distance: Meters, time: Seconds)]

        public static func == (a: Goals, b: Goals) -> Bool {
            a.distance == b.distance && a.duration == b.duration && a.pace == b.pace
                && a.predictions.map(\.time) == b.predictions.map(\.time)
        }
    }

    public func recommend(user: UserID, now: EpochSeconds) throws -> Goals {
        guard try store.user(id: user) != nil else { throw EngineError.unknownUser(user) }
        let runs = try store.runs(user: user, from: now - predictor.lookbackDays * 86_400, to: now).filter(\.isEvidence)
        let efforts = runs.map { Effort(time: $0.startTime, distance: $0.distance, duration: $0.moving) }
        let state = RunnerState(history: runs, asOf: now)
        let distance = max(1000, (state.enduranceOrDefault * Self.distanceFactor / 500).rounded() * 500)
        let racePace = predictor.predict(distance: distance, at: now, from: efforts).map { $0 / (distance / 1000) }
        let pace = ((racePace.map { $0 * Self.paceFactor } ?? state.typicalPaceOrDefault)).rounded()
        let predictions = RaceTimePredictor.raceDistances.compactMap { race in
            predictor.predict(distance: race.distance, at: now, from: efforts).map { (race.name, race.distance, $0.rounded()) }
        }
        return Goals(distance: distance, duration: (distance / 1000 * pace).rounded(), pace: pace, predictions: predictions)
    }
}
