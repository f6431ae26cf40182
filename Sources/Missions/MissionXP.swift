import RunusCore

/// XP offered for a mission (record 0202):
///
///     effort_km  = distance in km, or duration / 360 s (a 10 km/h equivalent)
///     base       = 10 × effort_km × intensity   (intensity: distance, duration 1.0;
///                                                negative split 1.15; pace, distance-in-time 1.25)
///     difficulty = 1 + 2 × (1 − p)               (p = completion probability, clamped to [0, 1])
///     xp         = max(5, base × difficulty rounded to the nearest 5)
///
/// So a 5 km run at p = 0.5 is worth 100 XP, at p = 0.9 60 XP; XP never rises with p.
/// Effort and intensity of the kinds added later are in record 0215.
public enum MissionXP {
    /// - Parameter pComplete: completion probability in [0, 1] (values outside are clamped; NaN,
    ///   an unknown difficulty, counts as 1 and earns no difficulty bonus).
    public static func xp(for spec: MissionSpec, pComplete: Double) -> Int {
        let p = pComplete.clamped(to: 0...1, nan: 1)
        let effortKm: Double, intensity: Double
        switch spec {
        case .distance(let d): effortKm = d / 1000; intensity = 1.0
        case .duration(let s): effortKm = s / 360; intensity = 1.0
        case .pace(_, let d): effortKm = d / 1000; intensity = 1.25
        case .negativeSplit(let d): effortKm = d / 1000; intensity = 1.15
        case .distanceInTime(let d, _): effortKm = d / 1000; intensity = 1.25
        // Record 0215.
        case .evenPace(let d, _): effortKm = d / 1000; intensity = 1.15
        case .progression(let n): effortKm = Double(n) + 2; intensity = 1.2
        case .intervals(let n, let r, _, _): effortKm = Double(n) * r / 1000 + 3; intensity = 1.4
        case .fartlek(let n, let t): effortKm = 4 + Double(n) * t / 300; intensity = 1.2
        case .hills(let g): effortKm = 4 + g / 50; intensity = 1.2
        case .longRun(let m): effortKm = 8 * m; intensity = 1.0
        case .earlyBird(_, let d), .nightOwl(_, let d), .loop(_, let d): effortKm = d / 1000; intensity = 1.0
        case .explorer(let f, let d): effortKm = d / 1000; intensity = 1 + 0.2 * f
        case .streak(let n): effortKm = 3 * Double(n); intensity = 1.0
        case .weeklyVolume(let d): effortKm = d / 1000; intensity = 0.5
        case .personalBest(let d): effortKm = d / 1000; intensity = 1.5
        case .recovery(_, let s, _): effortKm = s / 360; intensity = 0.8
        case .raceFinish(let d): effortKm = d / 1000; intensity = 1.2
        case .podium(let place): effortKm = 5; intensity = 1.5 + 0.5 / Double(place)
        }
        let raw = 10 * effortKm * intensity * (1 + 2 * (1 - p))
        return max(5, Int(saturating: (raw / 5).rounded()) * 5)
    }
}
