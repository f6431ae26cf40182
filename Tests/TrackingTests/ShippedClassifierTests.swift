import Testing
import RunusCore
@testable import Tracking

@Suite("Shipped activity classifier and its text form")
struct ShippedClassifierTests {
    /// The committed forest is what `make segmentation-model` makes: retraining on the seeded
    /// synthetic windows gives the same text, bit for bit (record 0147). About 15 s in debug.
    @Test("regenerating the shipped forest from its seed gives the committed parameters")
    func regenerates() {
        let retrained = ActivityClassifier.trainShipped().forest.text
        #expect(retrained == ActivityClassifier.shippedForestText, "run make segmentation-model and commit the result")
        #expect(ActivityClassifier.shippedSource(ActivityClassifier.trainShipped().forest).contains(ActivityClassifier.shippedForestText.split(separator: "\n").prefix(3).joined(separator: "\n        ")))
    }

    @Test("a forest read back from its text predicts exactly as the original")
    func textRoundTrip() throws {
        var rng = SeededGenerator(seed: 11)
        var xs: [[Double]] = [], ys: [Int] = []
        for _ in 0..<300 {
            let a = rng.uniform(-1, 1), b = rng.gaussian() * 1e-7, c = rng.uniform(0, 1e6)
            xs.append([a, b, c]); ys.append(a > 0 ? (c > 5e5 ? 2 : 1) : 0)
        }
        let forest = DecisionForest(samples: xs, labels: ys, classCount: 3, parameters: .init(trees: 7, maxDepth: 5, minLeaf: 2))
        let decoded = try DecisionForest(text: forest.text)
        #expect(decoded.text == forest.text)
        for x in xs.prefix(100) { #expect(decoded.probabilities(x) == forest.probabilities(x)) }
    }

    @Test("a damaged forest text is an error naming the line")
    func damagedText() {
        let text = "forest 2 1 1\ntree 3\n0 0.5 1 2\nleaf 1.0 0.0\nleaf 0.0\n"
        #expect(throws: DecisionForestTextError.self) { try DecisionForest(text: text) }
        do { _ = try DecisionForest(text: text) } catch let error as DecisionForestTextError {
            #expect(error.line == 5)
        } catch { Issue.record("unexpected \(error)") }
        #expect(throws: DecisionForestTextError.self) { try DecisionForest(text: "forest 2 1 1\ntree 2\n0 0.5 1 5\nleaf 1 0\n") }
        #expect((try? DecisionForest(text: "forest 2 1 1\ntree 1\nleaf 0.25 0.75\n"))?.probabilities([3]) == [0.25, 0.75])
    }
}

@Suite("Sustained speeds and rule-split windows")
struct SustainedSpeedTests {
    /// Chord speeds against a slow oracle: every pair (i, j) with j the first fix ≥ span later.
    @Test("chord speeds match a brute-force oracle on a jittery, irregularly sampled track")
    func chordOracle() {
        var rng = SeededGenerator(seed: 21)
        var points: [TrackPoint] = [], t = 0.0
        for k in 0..<200 {
            t += rng.uniform(0.5, 12)
            points.append(TrackPoint(time: t, latitude: 48 + Double(k) * 2e-5 + rng.gaussian() * 3e-5, longitude: 2 + rng.gaussian() * 3e-5))
        }
        for span in [30.0, 60.0] {
            var oracle: [Double] = []
            for i in points.indices {
                guard let j = points.indices.first(where: { $0 > i && points[$0].time - points[i].time >= span }) else { continue }
                oracle.append(Geodesy.localDistance(latitude1: points[i].latitude, longitude1: points[i].longitude,
                                                    latitude2: points[j].latitude, longitude2: points[j].longitude) / (points[j].time - points[i].time))
            }
            #expect(SegmentFeatures.chordSpeeds(points[...], span: span) == oracle)
        }
    }

    @Test("GPS jitter inflates step speeds of a walk but not its 30 s sustained speed")
    func jitterRobust() {
        var rng = SeededGenerator(seed: 4)
        let walk = straightTrack([(240, 1.3)]).points.map {
            TrackPoint(time: $0.time, latitude: $0.latitude + rng.gaussian() * 4 / 111_320, longitude: $0.longitude)
        }
        let f = SegmentFeatures(points: walk[...])
        let value = { (name: String) in f.values[SegmentFeatures.names.firstIndex(of: name)!] }
        #expect(value("speed_p95_mps") > 5)                       // 4 m jitter at 1 Hz
        #expect(value("sustained_speed_30s_max_mps") < 1.3 + 0.6)  // 2 × 4 m ÷ 30 s ≈ 0.3 m/s, with margin
        #expect(abs(value("chord_speed_30s_p50_mps") - 1.3) < 0.2)
    }

    @Test("windows split at rule flags never straddle a flag change and cover every segment once")
    func ruleSplitWindows() {
        var rng = SeededGenerator(seed: 8)
        let windowing = ActivityClassifier.Windowing()
        for _ in 0..<20 {
            var t = 0.0, points: [TrackPoint] = []
            for _ in 0..<rng.int(in: 2...500) {
                t += rng.bernoulli(0.01) ? rng.uniform(301, 900) : rng.uniform(1, 10)
                points.append(TrackPoint(time: t, latitude: 48 + rng.uniform(0, 0.01), longitude: 2))
            }
            var flags = [false], flag = false
            for _ in 1..<points.count { if rng.bernoulli(0.01) { flag.toggle() }; flags.append(flag) }
            var covered = [Int](repeating: 0, count: points.count)
            for w in windowing.windows(points, from: 0, through: points.count - 1, ruleVehicle: flags) {
                for i in (w.range.lowerBound + 1)...w.range.upperBound {
                    covered[i] += 1
                    #expect(flags[i] == w.rule)
                }
            }
            for i in 1..<points.count {
                #expect(covered[i] == (points[i].time - points[i - 1].time > windowing.maxGap ? 0 : 1), "segment \(i)")
            }
        }
    }
}
