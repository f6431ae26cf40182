import Testing
import RunusCore
@testable import Tracking

/// Record 0171: `TrackPoint` keeps its optional readings as doubles with NaN for "absent". What
/// goes in must come out, absent must stay absent, and equality must be the optionals'.
@Suite("TrackPoint readings")
struct TrackPointTests {
    static let values: [Double?] = [nil, 0, -0.0, -12.5, 1e-300, 8848.86, 230, .infinity, -.infinity,
                                    .greatestFiniteMagnitude, .leastNonzeroMagnitude]

    @Test("every reading reads back as given, through the initialiser and the setters")
    func roundTrip() {
        for e in Self.values {
            for h in Self.values {
                for c in Self.values {
                    var p = TrackPoint(time: 1, latitude: 2, longitude: 3, elevation: e, heartRate: h, cadence: c)
                    #expect(Self.same(p.elevation, e) && Self.same(p.heartRate, h) && Self.same(p.cadence, c),
                            "\(String(describing: e)) \(String(describing: h)) \(String(describing: c))")
                    p.elevation = c; p.heartRate = e; p.cadence = h
                    #expect(Self.same(p.elevation, c) && Self.same(p.heartRate, e) && Self.same(p.cadence, h))
                    #expect(p.time == 1 && p.latitude == 2 && p.longitude == 3)
                }
            }
        }
    }

    @Test("a NaN reading is absent (no reader produces one)")
    func nanIsAbsent() {
        var p = TrackPoint(time: 0, latitude: 0, longitude: 0, elevation: .nan, heartRate: .nan, cadence: .nan)
        #expect(p.elevation == nil && p.heartRate == nil && p.cadence == nil)
        p.elevation = 5
        p.elevation = .some(.nan)
        #expect(p.elevation == nil)
    }

    @Test("equality is field by field, absent equal to absent and to nothing else")
    func equality() {
        for a in Self.values {
            for b in Self.values {
                let p = TrackPoint(time: 1, latitude: 2, longitude: 3, elevation: a, heartRate: 70, cadence: nil)
                let q = TrackPoint(time: 1, latitude: 2, longitude: 3, elevation: b, heartRate: 70, cadence: nil)
                #expect((p == q) == (a == b), "\(String(describing: a)) vs \(String(describing: b))")
            }
        }
        let p = TrackPoint(time: 1, latitude: 2, longitude: 3)
        #expect(p != TrackPoint(time: 1.5, latitude: 2, longitude: 3))
        #expect(p != TrackPoint(time: 1, latitude: 2, longitude: 3.5))
        #expect(p != TrackPoint(time: 1, latitude: 2, longitude: 3, cadence: 170))
    }

    @Test("a fix is six doubles, the layout every live stage copies (record 0171)")
    func layout() {
        #expect(MemoryLayout<TrackPoint>.size == 48 && MemoryLayout<TrackPoint>.stride == 48)
    }

    /// Equal as optionals, with −0 told apart from +0.
    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?): return x == y && x.sign == y.sign
        default: return false
        }
    }
}
