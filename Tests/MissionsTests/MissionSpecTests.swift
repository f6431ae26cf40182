import Testing
import RunusCore
@testable import Missions

@Suite("Mission spec, titles and XP")
struct MissionSpecTests {
    static let examples: [MissionSpec] = [
        .distance(minDistance: 5000), .duration(minDuration: 1800), .pace(maxPace: 330, minDistance: 5000),
        .negativeSplit(minDistance: 5000), .distanceInTime(distance: 5000, maxDuration: 1650),
    ]

    @Test("canonical JSON is sorted, compact and parses back to the same spec")
    func canonicalRoundTrip() throws {
        #expect(Self.examples.map(\.canonicalJSON) == [
            #"{"distance_m":5000,"kind":"distance"}"#,
            #"{"duration_s":1800,"kind":"duration"}"#,
            #"{"kind":"pace","max_pace_s_per_km":330,"min_distance_m":5000}"#,
            #"{"kind":"negative_split","min_distance_m":5000}"#,
            #"{"distance_m":5000,"kind":"distance_in_time","max_duration_s":1650}"#,
        ])
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
        (#"{"kind":"marathon"}"#, .unknownKind("marathon", known: ["distance", "duration", "pace", "negative_split", "distance_in_time"])),
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
        ])
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
