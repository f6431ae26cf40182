import RunusCore
import Features
import Missions

/// Missions for a runner with no runs yet, sized from the profile and placed in the policy's
/// target band by the served model (records 0625, 0644).
///
/// The profile carries birth year, sex, height and weight (no self-reported level or weekly
/// volume: the backend does not send them). From those:
/// - easy pace, s/km: 420 (7:00/km) for men and unstated, 450 for women; +1.5 s/km per year of
///   age over 35; +8 s/km per BMI point over 25 (at most +80); clamped to 6:00–10:00/km;
/// - comfortable distance, metres: 3000, −500 from age 50, −500 from age 65, −500 for a BMI over
///   30; at least 1500;
/// - four kinds, each a ladder around that estimate (`ladder`): time on feet (duration), the
///   distance, an easy run held back at the easy pace (recovery), and an even-paced run with a
///   loose spread. Never more than `maxMultiple` × the estimate: the model has seen few runners
///   without history, and a beginner's first runs should not be their longest.
/// Every rung is scored by the served model on the runner's state; each kind offers the rung the
/// policy would (in the band, closest to its centre; the nearest to the band when none is in it),
/// easiest first.
public enum StarterMissions {
    /// What the profile says, with the values used.
    public struct Estimate: Sendable, Equatable {
        /// Age in whole years at the day asked, nil when the birth year is unknown.
        public let age: Int?
        /// Body-mass index, kg/m², nil without height and weight.
        public let bmi: Double?
        /// Easy pace, s/km in [360, 600].
        public let easyPace: SecondsPerKm
        /// Comfortable distance, metres in [1500, 3000].
        public let distance: Meters
    }

    public static func estimate(_ profile: UserProfile, year: Int) -> Estimate {
        let age = profile.birthYear.map { year - $0 }.flatMap { (5...110).contains($0) ? $0 : nil }
        let bmi: Double? = {
            guard let w = profile.weightKg, let h = profile.heightCm, h > 50, w > 20 else { return nil }
            return w / (h / 100 * h / 100)
        }()
        var pace: SecondsPerKm = profile.sex == "f" ? 450 : 420
        if let age { pace += 1.5 * Double(max(0, age - 35)) }
        if let bmi { pace += min(80, 8 * max(0, bmi - 25)) }
        var distance: Meters = 3000
        if let age, age >= 50 { distance -= 500 }
        if let age, age >= 65 { distance -= 500 }
        if let bmi, bmi > 30 { distance -= 500 }
        return Estimate(age: age, bmi: bmi, easyPace: min(600, max(360, pace.rounded())), distance: max(1500, distance))
    }

    /// Largest multiple of the profile's estimate (distance, time) a starter rung asks for.
    public static let maxMultiple = 2.0
    /// Multiples of the estimate on each kind's ladder.
    static let multiples: [Double] = [0.6, 0.8, 1.0, 1.25, 1.5, 1.75, 2.0]
    /// Even-pace rungs: distances (metres) and spreads (s/km), loose ones first.
    static let evenDistances: [Meters] = [2000, 2500, 3000, 4000, 5000, 6000]
    static let evenSpreads: [SecondsPerKm] = [30, 25, 20]

    /// The starter kinds, in the order they are listed.
    public static let kinds: [MissionKind] = [.duration, .distance, .recovery, .evenPace]

    /// The ladder of starter candidates for `profile`, by kind (`kinds` order), each easy to hard.
    public static func ladder(_ profile: UserProfile, year: Int) -> [[MissionSpec]] {
        let e = estimate(profile, year: year)
        let baseMinutes = e.distance * e.easyPace / 1000 / 60
        func minutes(_ f: Double) -> Seconds { max(10, (baseMinutes * f / 5).rounded() * 5) * 60 }
        func metres(_ f: Double) -> Meters { max(1000, (e.distance * f / 500).rounded() * 500) }
        func unique(_ specs: [MissionSpec]) -> [MissionSpec] {
            var seen: Set<MissionSpec> = []
            return specs.filter { seen.insert($0).inserted }
        }
        let cap = e.distance * maxMultiple
        return [
            unique(multiples.map { .duration(minDuration: minutes($0)) }),
            unique(multiples.map { .distance(minDistance: metres($0)) }),
            unique(multiples.map { .recovery(minPace: e.easyPace, minDuration: minutes($0), maxHeartRate: nil) }),
            unique(evenDistances.filter { $0 <= max(2000, cap) }.flatMap { d in
                evenSpreads.map { MissionSpec.evenPace(minDistance: d, maxSpread: $0) }
            }),
        ]
    }

    /// One mission per kind at the profile's estimate itself (multiple 1), the easiest even pace.
    public static func specs(_ profile: UserProfile, year: Int) -> [MissionSpec] {
        let e = estimate(profile, year: year)
        let minutes = max(10, (e.distance * e.easyPace / 1000 / 60 / 5).rounded() * 5)
        return [
            .duration(minDuration: minutes * 60),
            .distance(minDistance: e.distance),
            .recovery(minPace: e.easyPace, minDuration: minutes * 60, maxHeartRate: nil),
            .evenPace(minDistance: 2000, maxSpread: 30),
        ]
    }

    /// `count` starter missions scored by `scorer` on `state` (a runner without runs): per kind
    /// the rung closest to the centre of `band` (inside it when one is), then the `count` kinds
    /// whose rungs sit closest to the band, listed easiest first.
    public static func choose(profile: UserProfile, year: Int, count: Int, state: RunnerState,
                              scorer: any MissionScorer, band: ClosedRange<Double> = TodayPolicy().band) -> [ChosenMission] {
        let centre = (band.lowerBound + band.upperBound) / 2
        func distance(_ p: Double) -> Double {
            band.contains(p) ? abs(p - centre) : 1 + min(abs(p - band.lowerBound), abs(p - band.upperBound))
        }
        var picks: [(spec: MissionSpec, p: Double, kind: Int)] = []
        for (k, rungs) in ladder(profile, year: year).enumerated() where !rungs.isEmpty {
            let p = scorer.probabilities(rungs.map { MissionFeatures.vector($0, state: state) })
            let finite = rungs.indices.filter { p[$0].isFinite }
            guard let best = finite.min(by: { (distance(p[$0]), $0) < (distance(p[$1]), $1) }) else { continue }
            picks.append((rungs[best], p[best], k))
        }
        let kept = picks.sorted { (distance($0.p), $0.kind) < (distance($1.p), $1.kind) }.prefix(max(0, count))
        return kept.sorted { ($1.p, $0.kind) < ($0.p, $1.kind) }.map { pick in
            ChosenMission(spec: pick.spec, title: MissionTitle.title(for: pick.spec), pComplete: pick.p,
                          xp: MissionXP.xp(for: pick.spec, pComplete: pick.p), why: why(pick.spec, profile: profile, year: year),
                          isStretch: false)
        }
    }

    /// One sentence per mission: what it asks, against what the profile says is comfortable, and
    /// what of the profile sized it. Built from the spec and the profile alone, so a stored offer
    /// shows the same sentence on every read.
    public static func why(_ spec: MissionSpec, profile: UserProfile, year: Int) -> String {
        let e = estimate(profile, year: year)
        var from: [String] = []
        if let age = e.age { from.append("age \(age)") }
        if let bmi = e.bmi { from.append("BMI \(Int(saturating: bmi.rounded()))") }
        let sized = from.isEmpty ? "a beginner's start (no age, height or weight in your profile)"
            : "a start sized from your profile (\(from.joined(separator: ", ")))"
        let comfortable = DistanceFormat.kilometres(e.distance)
        let easy = Pace.format(e.easyPace)
        func share(_ ratio: Double) -> String {
            let p = Int(saturating: (abs(ratio - 1) * 100).rounded())
            if p < 5 { return "about" }
            return ratio > 1 ? "\(p) % more than" : "\(p) % less than"
        }
        let baseTime = e.distance * e.easyPace / 1000
        switch spec {
        case .duration(let t):
            return "Keep moving for \(DistanceFormat.duration(t)), walking breaks allowed: \(share(t / baseTime)) the "
                + "\(DistanceFormat.duration(baseTime)) of an easy \(comfortable) at \(easy)/km, \(sized)."
        case .distance(let d):
            return "Cover \(DistanceFormat.kilometres(d)) at any pace: \(share(d / e.distance)) the \(comfortable) "
                + "that is \(sized)."
        case .recovery(let pace, let t, _):
            return "Run easy for \(DistanceFormat.duration(t)) at \(Pace.format(pace))/km or slower, so the first runs "
                + "build the habit without strain; the easy pace and \(share(t / baseTime)) that time are \(sized)."
        case .evenPace(let d, let spread):
            return "Run \(DistanceFormat.kilometres(d)) keeping each kilometre within \(Int(saturating: spread.rounded())) s/km "
                + "of the others, a first lesson in pacing; \(share(d / e.distance)) the \(comfortable) of \(sized)."
        default:
            return "A starter mission for someone new to running, \(sized); it adapts after your first runs."
        }
    }
}
