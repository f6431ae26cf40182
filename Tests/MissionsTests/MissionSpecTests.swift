import Testing
import RunusCore
@testable import Missions

@Suite("Mission spec, titles and XP")
struct MissionSpecTests {
    /// One sensible mission per kind, in `MissionKind.allCases` order.
    static let examples: [MissionSpec] = MissionKind.allCases.map(\.example)

    @Test("canonical JSON is sorted, compact and parses back to the same spec")
    func canonicalRoundTrip() throws {
        #expect(Self.examples.map(\.canonicalJSON) == [
            #"{"distance_m":5000,"kind":"distance"}"#,
            #"{"duration_s":1800,"kind":"duration"}"#,
            #"{"kind":"pace","max_pace_s_per_km":330,"min_distance_m":5000}"#,
            #"{"kind":"negative_split","min_distance_m":5000}"#,
            #"{"distance_m":5000,"kind":"distance_in_time","max_duration_s":1650}"#,
            #"{"kind":"even_pace","max_spread_s_per_km":15,"min_distance_m":5000}"#,
            #"{"kilometres":3,"kind":"progression"}"#,
            #"{"kind":"intervals","max_pace_s_per_km":270,"max_recovery_s":180,"rep_distance_m":400,"reps":4}"#,
            #"{"kind":"fartlek","min_surge_s":30,"surges":4}"#,
            #"{"kind":"hills","min_ascent_m":100}"#,
            #"{"kind":"long_run","multiple":1.1}"#,
            #"{"kind":"early_bird","min_distance_m":3000,"start_before_min":420}"#,
            #"{"kind":"night_owl","min_distance_m":3000,"start_after_min":1260}"#,
            #"{"kind":"explorer","min_distance_m":3000,"min_new_fraction":0.3}"#,
            #"{"kind":"loop","max_gap_m":100,"min_distance_m":3000}"#,
            #"{"days":3,"kind":"streak"}"#,
            #"{"distance_m":20000,"kind":"weekly_volume"}"#,
            #"{"distance_m":5000,"kind":"personal_best"}"#,
            #"{"kind":"recovery","min_duration_s":1800,"min_pace_s_per_km":390}"#,
            #"{"kind":"race_finish","min_distance_m":5000}"#,
            #"{"kind":"podium","max_place":3}"#,
        ])
        let withCap = MissionSpec.recovery(minPace: 390, minDuration: 1800, maxHeartRate: 140)
        #expect(try MissionSpec(json: JSONParser.parse(withCap.canonicalJSON)) == withCap)
        for kind in MissionKind.allCases {
            // Parameter tables and values agree on names and order (optional ones may be absent).
            let names = MissionSpec.parameters(of: kind).map(\.name)
            #expect(kind.example.parameterValues.map(\.0) == names.filter { n in
                kind.example.parameterValues.contains { $0.0 == n } })
            #expect(MissionSpec.parameters(of: kind).filter { !$0.optional }.allSatisfy { p in
                kind.example.parameterValues.contains { $0.0 == p.name } })
        }
        for spec in Self.examples {
            #expect(try MissionSpec(json: JSONParser.parse(spec.canonicalJSON)) == spec)
            #expect(spec.json["kind"]?.stringValue == spec.kind.rawValue)
        }
        #expect(Set(Self.examples.map(\.kind)) == Set(MissionKind.allCases))
    }

    @Test("bad specs are refused with the parameter named", arguments: [
        (#"[1]"#, MissionSpecError.notAnObject(got: "array")),
        (#"{"distance_m":5000}"#, .missingKind),
        (#"{"kind":7}"#, .wrongType(parameter: "kind", expected: "string", got: "number")),
        (#"{"kind":"marathon"}"#, .unknownKind("marathon", known: MissionKind.allCases.map(\.rawValue))),
        (#"{"kind":"intervals","reps":4.5,"rep_distance_m":400,"max_pace_s_per_km":270,"max_recovery_s":90}"#,
         .wrongType(parameter: "reps", expected: "whole number", got: "4.5")),
        (#"{"kind":"streak","days":1}"#, .outOfRange(parameter: "days", value: 1, allowed: 2...60)),
        (#"{"kind":"recovery","min_pace_s_per_km":390,"min_duration_s":1800,"max_hr_bpm":300}"#,
         .outOfRange(parameter: "max_hr_bpm", value: 300, allowed: 60...220)),
        (#"{"kind":"explorer","min_new_fraction":0.3}"#, .missingParameter(kind: "explorer", parameter: "min_distance_m")),
        (#"{"kind":"pace","min_distance_m":5000}"#, .missingParameter(kind: "pace", parameter: "max_pace_s_per_km")),
        (#"{"kind":"distance","distance_m":"5k"}"#, .wrongType(parameter: "distance_m", expected: "number", got: "string")),
        (#"{"kind":"distance","distance_m":-5}"#, .outOfRange(parameter: "distance_m", value: -5, allowed: 100...100_000)),
        (#"{"kind":"pace","max_pace_s_per_km":30,"min_distance_m":5000}"#,
         .outOfRange(parameter: "max_pace_s_per_km", value: 30, allowed: 120...1200)),
        (#"{"kind":"duration","duration_s":1800,"distance_m":5}"#,
         .unexpectedParameter(kind: "duration", parameter: "distance_m", allowed: ["duration_s"])),
    ])
    func parseErrors(text: String, expected: MissionSpecError) throws {
        #expect(throws: expected) { try MissionSpec(json: JSONParser.parse(text)) }
        #expect(expected.description.contains("mission spec"))
    }

    @Test("error messages name parameter, value and allowed range")
    func messages() {
        #expect(MissionSpecError.outOfRange(parameter: "distance_m", value: -5, allowed: 100...100_000).description
                == #"mission spec: "distance_m" = -5.0 is outside [100.0, 100000.0]"#)
    }

    @Test("titles for each kind")
    func titles() {
        #expect(Self.examples.map(MissionTitle.title(for:)) == [
            "Run 5.0 km", "Run for 30 min", "Run 5.0 km at 5:30/km or faster",
            "Run 5.0 km with a faster second half", "Cover 5.0 km in under 27:30",
            "Run 5.0 km with every km within 15 s/km of the others",
            "Run 3 km, each faster than the last",
            "4 × 400 m at 4:30/km or faster, rests up to 3:00",
            "Fartlek: 4 surges of 30 s or more",
            "Climb 100 m",
            "Run 10 % further than your longest run of the last 4 weeks",
            "Early bird: run 3.0 km starting before 7:00",
            "Night owl: run 3.0 km starting after 21:00",
            "Explore: run 3.0 km with 30 % on new ground",
            "Run a 3.0 km loop, finishing within 100 m of the start",
            "Run 3 days in a row",
            "Bring your week to 20.0 km",
            "Beat your best 5.0 km",
            "Easy 30 min at 6:30/km or slower",
            "Finish a race of 5.0 km or more",
            "Finish a race in the top 3",
        ])
        #expect(MissionTitle.title(for: .recovery(minPace: 390, minDuration: 1800, maxHeartRate: 140))
                == "Easy 30 min at 6:30/km or slower, heart rate under 140")
        #expect(MissionPresentation(spec: .podium(maxPlace: 1), why: "You won twice").title == "Win a race")
        #expect(MissionTitle.title(for: .duration(minDuration: 1830)) == "Run for 30:30")
    }

    @Test("XP is a multiple of 5, never rises with completion probability, and grows with effort")
    func xp() {
        for spec in Self.examples {
            var previous = Int.max
            for step in 0...100 {
                let value = MissionXP.xp(for: spec, pComplete: Double(step) / 100)
                #expect(value % 5 == 0 && value >= 5 && value <= previous, "\(spec) p=\(step)%")
                previous = value
            }
            #expect(MissionXP.xp(for: spec, pComplete: 0.1) > MissionXP.xp(for: spec, pComplete: 0.9))
        }
        #expect(MissionXP.xp(for: .distance(minDistance: 5000), pComplete: 0.5) == 100)
        #expect(MissionXP.xp(for: .distance(minDistance: 10_000), pComplete: 0.5)
                > MissionXP.xp(for: .distance(minDistance: 5000), pComplete: 0.5))
    }
}
