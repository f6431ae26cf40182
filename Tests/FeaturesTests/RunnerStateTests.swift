import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Random histories: runs every 0.5–3 days with distances 2–20 km and paces 4–8 min/km.
func randomHistory(seed: UInt64, count: Int, start: EpochSeconds = 1_780_000_000) -> [RunRecord] {
    var rng = SeededGenerator(seed: seed)
    var t = start
    return (0..<count).map { i in
        t += rng.uniform(0.5, 3) * 86_400
        let d = rng.uniform(2000, 20_000)
        let moving = d / 1000 * rng.uniform(240, 480)
        return RunRecord(id: "r\(i)", userID: "u", startTime: t, distance: d, elapsed: moving * 1.05,
                         moving: moving, elevationGain: 0, source: "test")
    }
}

@Suite("RunnerState")
struct RunnerStateTests {
    @Test("adding runs at or after t never changes the state or features at t", arguments: [1, 2, 3, 4, 5])
    func asOfIsStrict(seed: Int) {
        let history = randomHistory(seed: UInt64(seed), count: 80)
        var rng = SeededGenerator(seed: UInt64(seed) + 100)
        for _ in 0..<20 {
            let t = rng.uniform(history.first!.startTime - 86_400, history.last!.startTime + 86_400)
            let before = history.filter { $0.startTime < t }
            let base = RunnerState(history: before, asOf: t)
            // Add every later run (and one exactly at t), shuffled: nothing changes.
            var extended = history + [RunRecord(id: "at-t", userID: "u", startTime: t, distance: 42_195,
                                                elapsed: 9000, moving: 9000, elevationGain: 0, source: "test")]
            extended.shuffle(using: &rng)
            let full = RunnerState(history: extended, asOf: t)
            #expect(full == base)
            for spec in [MissionSpec.distance(minDistance: 8000), .pace(maxPace: 300, minDistance: 5000)] {
                #expect(MissionFeatures.vector(spec, state: full) == MissionFeatures.vector(spec, state: base))
            }
        }
    }

    /// Oracle: the window sums by direct filtering.
    @Test("window volumes, counts and the longest run match direct filtering")
    func windows() {
        let history = randomHistory(seed: 9, count: 60)
        let t = history[40].startTime + 3600
        let state = RunnerState(history: history, asOf: t)
        let in7 = history.filter { $0.startTime < t && t - $0.startTime <= 7 * 86_400 }
        let in28 = history.filter { $0.startTime < t && t - $0.startTime <= 28 * 86_400 }
        let tolerance = 1e-9  // sums of the same doubles in a different order
        #expect(abs(state.volume7d - in7.reduce(0) { $0 + $1.distance }) < tolerance * 1e6)
        #expect(abs(state.volume28d - in28.reduce(0) { $0 + $1.distance }) < tolerance * 1e6)
        #expect(state.runs28d == in28.count)
        #expect(state.longest28d == in28.map(\.distance).max()!)
        #expect(state.totalRuns == 41)
        #expect(abs(state.daysSinceLastRun! - 3600.0 / 86_400) < 1e-12)
        let paces = history[31...40].map { $0.moving / ($0.distance / 1000) }.sorted()
        #expect(abs(state.typicalPace! - (paces[4] + paces[5]) / 2) < 1e-9)
    }

    @Test("a runner without history gets the documented defaults")
    func noHistory() {
        let state = RunnerState(history: [], asOf: 1_800_000_000)
        #expect(state.endurance == nil && state.typicalPace == nil)
        #expect(state.enduranceOrDefault == RunnerState.defaultEndurance)
        #expect(state.acuteChronicRatio == 1)
        let row = MissionFeatures.vector(.distance(minDistance: 4000), state: state)
        #expect(row.count == MissionFeatures.schema.count)
        #expect(row[MissionFeatures.schema.names.firstIndex(of: "has_history")!] == 0)
        #expect(row[MissionFeatures.schema.names.firstIndex(of: "rel_distance_distance")!] == 0)
    }
}

@Suite("MissionFeatures")
struct MissionFeaturesTests {
    @Test("one-hot kind and kind-specific terms land in their own columns")
    func layout() {
        let state = RunnerState(history: randomHistory(seed: 3, count: 20), asOf: 1_800_000_000)
        let names = MissionFeatures.schema.names
        for spec in [MissionSpec.distance(minDistance: 6000), .duration(minDuration: 1800),
                     .pace(maxPace: 330, minDistance: 5000), .negativeSplit(minDistance: 5000),
                     .distanceInTime(distance: 5000, maxDuration: 1500)] {
            let row = MissionFeatures.vector(spec, state: state)
            let kind = spec.kind.rawValue
            for (i, name) in names.enumerated() where name.hasPrefix("kind_") {
                #expect(row[i] == (name == "kind_\(kind)" ? 1 : 0))
            }
            for (i, name) in names.enumerated() where name.hasPrefix("rel_") && !name.hasSuffix("_\(kind)") {
                #expect(row[i] == 0, "\(name) should be 0 for \(kind)")
            }
        }
        let pace = MissionFeatures.vector(.pace(maxPace: 300, minDistance: 5000), state: state)
        let expected = log(state.expectedPace(over: 5000) / 300)
        #expect(abs(pace[names.firstIndex(of: "rel_pace_pace")!] - expected) < 1e-12)
    }

    @Test("the schema hash changes when a feature is renamed, not when a meaning is reworded")
    func hash() {
        let schema = MissionFeatures.schema
        var renamed = schema.features
        renamed[0] = FeatureDefinition(name: "kind_x", unit: renamed[0].unit, meaning: renamed[0].meaning, missing: renamed[0].missing)
        #expect(FeatureSchema(version: schema.version, features: renamed).hash != schema.hash)
        var reworded = schema.features
        reworded[0] = FeatureDefinition(name: reworded[0].name, unit: reworded[0].unit, meaning: "other words", missing: "x")
        #expect(FeatureSchema(version: schema.version, features: reworded).hash == schema.hash)
        #expect(schema.hash.count == 16)
    }
}
