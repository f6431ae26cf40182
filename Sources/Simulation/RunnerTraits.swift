import RunusCore
#if canImport(Glibc)
import Glibc
#endif

/// A home city: where a runner's routes start, and its fixed UTC offset (zones without daylight
/// saving time, so the IANA name and the offset always agree).
struct HomeCity: Sendable {
    let name: String
    let latitude: Double
    let longitude: Double
    /// Ground elevation near the city, metres.
    let baseElevation: Meters
    let timeZone: String
    let utcOffsetSeconds: Int

    static let all: [HomeCity] = [
        HomeCity(name: "Seoul", latitude: 37.5665, longitude: 126.9780, baseElevation: 38, timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600),
        HomeCity(name: "Tokyo", latitude: 35.6762, longitude: 139.6503, baseElevation: 40, timeZone: "Asia/Tokyo", utcOffsetSeconds: 9 * 3600),
        HomeCity(name: "Nairobi", latitude: -1.2921, longitude: 36.8219, baseElevation: 1795, timeZone: "Africa/Nairobi", utcOffsetSeconds: 3 * 3600),
        HomeCity(name: "Bogotá", latitude: 4.7110, longitude: -74.0721, baseElevation: 2640, timeZone: "America/Bogota", utcOffsetSeconds: -5 * 3600),
        HomeCity(name: "Mumbai", latitude: 19.0760, longitude: 72.8777, baseElevation: 14, timeZone: "Asia/Kolkata", utcOffsetSeconds: 19_800),
        HomeCity(name: "Reykjavík", latitude: 64.1466, longitude: -21.9426, baseElevation: 20, timeZone: "Atlantic/Reykjavik", utcOffsetSeconds: 0),
    ]
}

/// The latent, fixed traits of one simulated runner. Nothing here is visible to the engine except
/// the profile; the rest shows only through the runs the runner makes.
struct RunnerTraits: Sendable {
    let profile: UserProfile
    let home: HomeCity
    /// Offset of the runner's home from the city centre, metres east and north.
    let homeOffset: (east: Meters, north: Meters)
    /// 5 km race time when rested at the runner's habitual training volume, seconds (17–45 min).
    let base5k: Seconds
    /// Runs per week the runner aims for (2–6).
    let runsPerWeek: Double
    /// Weekdays (ISO 1 = Monday … 7) the runner prefers.
    let preferredWeekdays: Set<Int>
    /// Usual start hour, local (5–21).
    let startHour: Double
    /// Habitual run distance, metres (3–16 km).
    let habitDistance: Meters
    /// Device sampling interval, seconds (1–5).
    let samplingInterval: Seconds
    /// GPS horizontal noise, stationary standard deviation per axis, metres (2–5).
    let gpsNoise: Meters
    /// Terrain relief amplitude around home, metres (3–40).
    let terrainAmplitude: Meters
    /// Terrain phases (radians) so that each runner's hills differ.
    let terrainPhase: (Double, Double, Double)
    /// Probability that a run starts with a drive to the park (0 for most runners).
    let driveProbability: Double
    /// Probability of trying the offered mission on a run day (0.6–0.9).
    let engagement: Double

    static func draw(index: Int, rng: inout SeededGenerator) -> RunnerTraits {
        let id = "runner-" + String(repeating: "0", count: max(0, 4 - String(index + 1).count)) + String(index + 1)
        let female = rng.bernoulli(0.45)
        let birthYear = 1960 + rng.int(in: 0...45)
        let height = (rng.gaussian(mean: female ? 165 : 178, sd: 7) * 10).rounded() / 10
        let bmi = min(32, max(18, rng.gaussian(mean: female ? 21.8 : 23.2, sd: 2.2)))
        let weight = (bmi * (height / 100) * (height / 100) * 10).rounded() / 10
        let home = HomeCity.all[rng.int(in: 0...(HomeCity.all.count - 1))]
        let profile = UserProfile(id: id, birthYear: birthYear, sex: female ? "f" : "m", heightCm: height,
                                  weightKg: weight, timeZone: home.timeZone, utcOffsetSeconds: home.utcOffsetSeconds)
        // Ability: log-normal around 28 min for men, 31 for women, older runners slower.
        let age = Double(2026 - birthYear)
        let ageFactor = 1 + max(0, age - 35) * 0.006
        let base5k = min(45 * 60, max(17 * 60, (female ? 31 : 28) * 60 * ageFactor * exp(rng.gaussian(mean: 0, sd: 0.14))))
        let runsPerWeek = [2.0, 3, 3, 4, 4, 5, 6][rng.int(in: 0...6)]
        var days: Set<Int> = []
        while Double(days.count) < runsPerWeek { days.insert(rng.int(in: 1...7)) }
        let earlyBird = rng.bernoulli(0.35)
        let startHour = earlyBird ? rng.uniform(5.5, 8) : rng.uniform(16.5, 20.5)
        // Faster and more frequent runners run longer.
        let speedFactor = (28 * 60) / base5k
        let habit = min(16_000, max(3_000, 5_000 * speedFactor * (0.7 + 0.12 * runsPerWeek) * exp(rng.gaussian(mean: 0, sd: 0.2))))
        let interval = [1.0, 1, 2, 3, 5][rng.int(in: 0...4)]
        return RunnerTraits(
            profile: profile, home: home,
            homeOffset: (rng.uniform(-4000, 4000), rng.uniform(-4000, 4000)),
            base5k: base5k, runsPerWeek: runsPerWeek, preferredWeekdays: days, startHour: startHour,
            habitDistance: habit, samplingInterval: interval, gpsNoise: rng.uniform(2, 5),
            terrainAmplitude: rng.uniform(3, 40),
            terrainPhase: (rng.uniform(0, 6.28), rng.uniform(0, 6.28), rng.uniform(0, 6.28)),
            driveProbability: rng.bernoulli(0.08) ? rng.uniform(0.2, 0.5) : 0,
            engagement: rng.uniform(0.6, 0.9))
    }
}
