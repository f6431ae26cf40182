import RunusCore
import Features
import Missions

/// Missions for a runner with no runs yet, sized from the profile alone (record 0625).
///
/// The profile carries birth year, sex, height and weight (no self-reported level or weekly
/// volume: the backend does not send them). From those:
/// - easy pace, s/km: 420 (7:00/km) for men and unstated, 450 for women; +1.5 s/km per year of
///   age over 35; +8 s/km per BMI point over 25 (at most +80); clamped to 6:00–10:00/km;
/// - comfortable distance, metres: 3000, −500 from age 50, −500 from age 65, −500 for a BMI over
///   30; at least 1500;
/// - missions, easiest first: a time-on-feet run (duration), the comfortable distance, an easy
///   run held back at the easy pace (recovery), and an even-paced 2 km with a loose 30 s/km spread.
/// Each is scored by the served model on the empty state, so it carries the model's probability.
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

    /// The starter specs for `profile`, easiest first (at most 4).
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

    /// `count` starter missions scored by `scorer` on `state` (a runner without runs).
    public static func choose(profile: UserProfile, year: Int, count: Int, state: RunnerState,
                              scorer: any MissionScorer) -> [ChosenMission] {
        let specs = Array(specs(profile, year: year).prefix(max(0, count)))
        let p = scorer.probabilities(specs.map { MissionFeatures.vector($0, state: state) })
        return zip(specs, p).map { spec, p in
            ChosenMission(spec: spec, title: MissionTitle.title(for: spec), pComplete: p,
                          xp: MissionXP.xp(for: spec, pComplete: p), why: why(spec, profile: profile, year: year),
                          isStretch: false)
        }
    }

    /// One sentence: a starter mission, and what of the profile sized it.
    public static func why(_ spec: MissionSpec, profile: UserProfile, year: Int) -> String {
        let e = estimate(profile, year: year)
        var from: [String] = []
        if let age = e.age { from.append("age \(age)") }
        if let bmi = e.bmi { from.append("BMI \(Int(saturating: bmi.rounded()))") }
        let sized = from.isEmpty ? "" : ", sized from your profile (\(from.joined(separator: ", ")))"
        return "A starter mission for someone new to running\(sized); it adapts after your first runs."
    }
}
