import Testing
import RunusCore
import Tracking
import Missions
import Features
@testable import Engine

/// A straight run sampled every 2 s: the first half at `firstPace`, the second at `secondPace`
/// (s/km), so negative splits and paces vary from run to run.
func twoPaceRun(distance: Meters, firstPace: SecondsPerKm, secondPace: SecondsPerKm, start: EpochSeconds) -> Track {
    var points: [TrackPoint] = []
    var covered: Meters = 0, t = start
    while true {
        let p = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: 30, distance: covered)
        points.append(TrackPoint(time: t, latitude: p.latitude, longitude: p.longitude, elevation: 35))
        if covered >= distance { break }
        covered = min(distance, covered + 2 * 1000 / (covered < distance / 2 ? firstPace : secondPace))
        t += 2
    }
    return Track(points: points)
}

/// A runner's history for the tests: runs every 1-3 days, 3-12 km at 4:30-6:30/km, every third
/// one summary-only (no track), the others with a two-pace track. Fixed seed.
struct LabelHistory {
    var records: [RunRecord] = []
    var tracks: [String: Track] = [:]

    init(seed: UInt64, count: Int) {
        var rng = SeededGenerator(seed: seed)
        var t: EpochSeconds = 1_780_000_000
        for i in 0..<count {
            t += rng.uniform(1, 3) * 86_400
            let d = (rng.uniform(3000, 12_000) / 10).rounded() * 10
            let p1 = rng.uniform(270, 390), p2 = p1 * rng.uniform(0.94, 1.06)
            let id = "u:run-\(i)"
            if i % 3 == 2 {
                let moving = (d / 2 * p1 + d / 2 * p2) / 1000
                records.append(RunRecord(id: id, userID: "u", startTime: t, distance: d, elapsed: moving * 1.02,
                                         moving: moving, elevationGain: 0, source: "import"))
            } else {
                let track = twoPaceRun(distance: d, firstPace: p1, secondPace: p2, start: t)
                let m = RunMetrics(track: track)
                records.append(RunRecord(id: id, userID: "u", startTime: m.startTime, distance: m.distance,
                                         elapsed: m.elapsed, moving: m.moving, elevationGain: m.elevationGain,
                                         source: "import", track: []))
                tracks[id] = track
            }
        }
    }

    func missionRun(_ i: Int) -> MissionRun? { tracks[records[i].id].map { MissionRun(track: $0) } }
}

@Suite("HistoryLabels")
struct HistoryLabelsTests {
    @Test("labels match a direct evaluator call on the run's track; dropped candidates are not applicable or excluded")
    func matchEvaluator() throws {
        let h = LabelHistory(seed: 7, count: 8)
        var checked = 0
        for i in h.records.indices where h.tracks[h.records[i].id] != nil {
            let labels = HistoryLabels.labels(history: h.records, at: i, run: h.missionRun(i))
            if i < HistoryLabels.minimumPriorRuns { #expect(labels.isEmpty); continue }
            let past = Array(h.records[..<i])
            let context = MissionContext(priorRuns: past.map { PriorRun(start: $0.startTime, utcOffset: 0, distance: $0.distance) },
                                         utcOffset: 0)
            let candidates = CandidateGenerator.candidates(for: RunnerState(history: past, asOf: h.records[i].startTime))
            // Built here, apart from the labeller's own, and shared by the candidates of this run.
            let direct = MissionRun(track: h.tracks[h.records[i].id]!)
            var byID: [String: HistoryLabels.Label] = [:]
            for l in labels { byID[l.example.assignmentID] = l }
            #expect(byID.count == labels.count, "label ids are unique")
            for (k, spec) in candidates.enumerated() {
                let verdict = MissionEvaluator.evaluate(spec, run: direct, context: context)
                let label = byID[HistoryLabels.labelID(runID: h.records[i].id, candidate: k)]
                if verdict.status == .notApplicable || HistoryLabels.excludedKinds.contains(spec.kind)
                    || !MissionFeatures.models(spec.kind) {
                    #expect(label == nil)
                } else {
                    let l = try #require(label)
                    #expect(l.spec == spec)
                    #expect(l.example.label == (verdict.status == .completed ? 1 : 0))
                    checked += 1
                }
            }
        }
        #expect(checked > 200)
    }

    @Test("no run at or after the label's time contributes to its features")
    func asOfIsStrict() {
        let h = LabelHistory(seed: 11, count: 12)
        let i = 8
        let base = HistoryLabels.labels(history: h.records, at: i, run: h.missionRun(i))
        // Change every later run and add one starting exactly with the labelled run.
        var changed = h.records
        for j in (i + 1)..<changed.count { changed[j].distance *= 3; changed[j].moving *= 0.5 }
        var twin = h.records[i]
        twin.id = "u:run-8b"; twin.distance = 42_195; twin.moving = 9000
        changed.insert(twin, at: i + 1)
        let after = HistoryLabels.labels(history: changed, at: i, run: h.missionRun(i))
        #expect(!base.isEmpty)
        #expect(base.map(\.example.features) == after.map(\.example.features))
        #expect(base.map(\.example.label) == after.map(\.example.label))
        // The twin (same start) is not in the past of the labelled run, nor is it in its own.
        let twinLabels = HistoryLabels.labels(history: changed, at: i + 1, run: nil)
        let state = RunnerState(history: Array(h.records[..<i]), asOf: h.records[i].startTime)
        for l in base + twinLabels {
            #expect(l.example.time == h.records[i].startTime)
            #expect(l.example.features == MissionFeatures.vector(l.spec, state: state))
        }
    }

    @Test("summary-only runs label distance and duration only, as the evaluator judges an even-paced track")
    func summaryRuns() throws {
        let h = LabelHistory(seed: 5, count: 15)
        var checked = 0
        for i in h.records.indices where h.tracks[h.records[i].id] == nil {
            let r = h.records[i]
            let labels = HistoryLabels.labels(history: h.records, at: i, run: nil)
            #expect(!labels.isEmpty)
            #expect(labels.allSatisfy { HistoryLabels.summaryKinds.contains($0.example.kind) })
            // Oracle: the evaluator on a straight track with the summary's distance and moving time.
            let even = straightRun(distance: r.distance, pace: r.moving / r.distance * 1000, start: r.startTime)
            let metrics = RunMetrics(track: even)
            for l in labels {
                let target: Double
                switch l.spec {
                case .distance(let d): target = d / r.distance
                case .duration(let t): target = t / r.moving
                default: Issue.record("unexpected kind \(l.spec.kind)"); continue
                }
                // Targets within 2 % of the summary are left out: the straight track's measured
                // distance and moving time differ from the summary by a metre or a second.
                guard abs(target * MissionTolerance.default.distanceFraction - 1) > 0.02 else { continue }
                let direct = MissionEvaluator.evaluate(l.spec, metrics: metrics)
                #expect(l.example.label == (direct.status == .completed ? 1 : 0), "\(l.spec)")
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    @Test("the first run gets no labels, and ids are deterministic")
    func firstRunAndIDs() {
        let h = LabelHistory(seed: 3, count: 6)
        #expect(HistoryLabels.labels(history: h.records, at: 0, run: h.missionRun(0)).isEmpty)
        let a = HistoryLabels.labels(history: h.records, at: 4, run: h.missionRun(4))
        let b = HistoryLabels.labels(history: h.records, at: 4, run: h.missionRun(4))
        #expect(a.map(\.example.assignmentID) == b.map(\.example.assignmentID))
        #expect(a.allSatisfy { $0.example.assignmentID.hasPrefix("history:u:run-4:") && $0.runID == "u:run-4" })
    }
}
