import Testing
import RunusCore
import ActivityLab
@testable import Tracking

/// The windowed vehicle rule and the classifier's vehicle evidence (record 0130).
@Suite("Windowed vehicle rule")
struct WindowedVehicleRuleTests {
    /// A noisy run: `minutes` at `speed` m/s going north at 1 Hz, each fix off its true place by
    /// Gaussian noise of `sd` metres (seeded), so single steps often read over 7 m/s.
    static func noisyRun(seed: UInt64, minutes: Double, speed: Double, sd: Meters, start: EpochSeconds = 1_800_000_000) -> [TrackPoint] {
        var rng = SeededGenerator(seed: seed)
        var points: [TrackPoint] = []
        for k in 0...Int(minutes * 60) {
            let t = Double(k)
            let p = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: 0, distance: speed * t + rng.gaussian(mean: 0, sd: sd))
            let q = Geodesy.destination(latitude: p.latitude, longitude: p.longitude, bearing: 90, distance: rng.gaussian(mean: 0, sd: sd))
            points.append(TrackPoint(time: start + t, latitude: q.latitude, longitude: q.longitude))
        }
        return points
    }

    /// The per-step rule this record replaced (record 0106 before 0130), as the adversary: steps
    /// over `speed` chained across slower gaps under 30 s into stretches of ≥ 20 s.
    static func perStepRuleFlags(_ p: [TrackPoint], speed: Double = 7) -> Int {
        let fast = p.indices.map { $0 > 0 && Track.speed(p[$0 - 1], p[$0]) > speed }
        var flagged = 0, i = 1
        while i < p.count {
            guard fast[i] else { i += 1; continue }
            var end = i, j = i + 1
            while j < p.count {
                if fast[j] { end = j; j += 1; continue }
                var k = j
                while k < p.count, !fast[k] { k += 1 }
                guard k < p.count, p[k - 1].time - p[j - 1].time < 30 else { break }
                end = k; j = k + 1
            }
            if p[end].time - p[i - 1].time >= 20 { flagged += end - i + 1 }
            i = end + 1
        }
        return flagged
    }

    @Test("a run whose GPS noise makes single steps faster than 7 m/s stays whole", arguments: [1, 2, 3] as [UInt64])
    func noisyRunStaysWhole(seed: UInt64) {
        let raw = Self.noisyRun(seed: seed, minutes: 30, speed: 3.5, sd: 3)
        let cleaned = Track(points: raw).cleaned()
        // The track is adversarial: the old per-step rule cut part of it.
        #expect(Self.perStepRuleFlags(cleaned.points) > 0)
        #expect(!cleaned.vehicleSegments().contains(true))
        let whole = MetricsConfiguration(vehicleMinDuration: .infinity, classifyActivities: false)
        #expect(RunMetrics(track: Track(points: raw)).distance == RunMetrics(track: Track(points: raw), configuration: whole).distance)
    }

    @Test("a drive with a traffic-light stop in the middle of a noisy run is cut, the running around it is kept")
    func driveInTheMiddle() {
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 600)
        b.run(speed: 12, seconds: 150)
        b.run(speed: 0, seconds: 20)
        b.run(speed: 12, seconds: 150)
        b.run(speed: 3, seconds: 600)
        var rng = SeededGenerator(seed: 7)
        let points = b.points.map { p in
            let q = Geodesy.destination(latitude: p.latitude, longitude: p.longitude, bearing: rng.uniform(0, 360),
                                        distance: abs(rng.gaussian(mean: 0, sd: 1.5)))
            return TrackPoint(time: p.time, latitude: q.latitude, longitude: q.longitude)
        }
        let cleaned = Track(points: points).cleaned()
        let flags = cleaned.vehicleSegments()
        let t0 = points[0].time, h = MetricsConfiguration.default.vehicleWindowHalfWidth
        // A segment's flag may differ from the truth only within one window half-width (and a
        // fix) of a change of speed: the window mixes both sides there.
        for i in 1..<cleaned.points.count {
            let t = cleaned.points[i].time - t0
            let inDrive = t > 600 && t <= 920
            let nearEdge = abs(t - 600) <= h + 1 || abs(t - 920) <= h + 1
            if !nearEdge { #expect(flags[i] == inDrive, "segment ending at +\(t) s") }
        }
        let metrics = RunMetrics(track: Track(points: points))
        // Running distance 3,600 m; each edge can move by h + 1 s of driving (12 m/s) or of
        // running, plus GPS noise along 1,200 running fixes (the jitter filter keeps most of it).
        #expect(abs(metrics.distance - 3600) < 2 * (h + 1) * 12 + 100, "distance \(metrics.distance)")
        #expect(abs(metrics.moving - 1200) <= 2 * (h + 1) + 10, "moving \(metrics.moving)")
    }

    @Test("400 m sprints at 7.05 and 9.3 m/s are running; a 75 s leg at 8 m/s is a vehicle")
    func sprintsAndShortDrive() {
        for speed in [7.05, 9.3] {
            var b = TrackBuilder()
            b.run(speed: 3, seconds: 300)
            b.run(speed: speed, seconds: (400 / speed).rounded(.down))
            b.run(speed: 3, seconds: 300)
            #expect(!b.track.cleaned(configuration: MetricsConfiguration(maxAcceleration: 10)).vehicleSegments().contains(true),
                    "sprint at \(speed)")
        }
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 300)
        b.run(speed: 8, seconds: 75)
        b.run(speed: 3, seconds: 300)
        let configuration = MetricsConfiguration(maxAcceleration: 10)
        #expect(b.track.cleaned(configuration: configuration).vehicleSegments(configuration: configuration).contains(true))
    }

    @Test("the minimum duration and the gap tolerance are inclusive and exclusive at their boundaries")
    func boundaries() {
        // Half-width 0: the windowed speed is the step's own, so durations are exact seconds.
        let c = MetricsConfiguration(maxAcceleration: 100, vehicleWindowHalfWidth: 0, classifyActivities: false)
        for (seconds, cut) in [(59.0, false), (60.0, true)] {
            let track = straightTrack([(100, 3.0), (seconds, 9.0), (100, 3.0)])
            #expect(track.vehicleSpeedRule(configuration: c).contains(true) == cut, "\(seconds) s at 9 m/s")
        }
        // Two 60 s stretches with a stop between: the time from the first stretch's last fix to
        // the second's first decides.
        for (stop, joined) in [(29.0, true), (30.0, false)] {
            let track = straightTrack([(100, 3.0), (60, 9.0), (stop, 0.0), (60, 9.0), (100, 3.0)])
            let flags = track.vehicleSpeedRule(configuration: c)
            #expect(flags.filter { $0 }.count == (joined ? 120 + Int(stop) : 120), "stop \(stop) s")
        }
    }

    @Test("windowed speeds equal a brute-force window search on irregular times", arguments: [5.0, 0.0, 12.5])
    func windowedSpeedOracle(halfWidth: Double) {
        var rng = SeededGenerator(seed: 99)
        var points: [TrackPoint] = [], t = 1_800_000_000.0, lat = 48.0, lon = 2.0
        for _ in 0..<400 {
            t += [1, 1, 2, 2.5, 5, 0.5].randomElement(using: &rng)!
            lat += rng.uniform(-3e-5, 3e-5); lon += rng.uniform(-3e-5, 3e-5)
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon))
        }
        let speeds = Track(points: points).windowedSpeeds(halfWidth: halfWidth)
        for s in 1..<points.count {
            // First fix: the last one at least halfWidth before fix s−1 (else the first fix);
            // last fix: the first one at least halfWidth after fix s (else the last fix).
            let a = (0...(s - 1)).last { points[s - 1].time - points[$0].time >= halfWidth } ?? 0
            let b = (s..<points.count).first { points[$0].time - points[s].time >= halfWidth } ?? points.count - 1
            #expect(speeds[s] == Track.speed(points[a], points[b]), "segment \(s)")
        }
    }

    @Test("vehicle evidence needs the windowed speed above the threshold for the minimum, contiguously")
    func evidence() {
        let times = (0...20).map { Double($0) * 2 }   // a fix every 2 s
        var windowed = [Double](repeating: 3, count: 21)
        for s in 5...9 { windowed[s] = 8 }            // segments 5…9: fixes 4…9, 10 s
        windowed[12] = 8
        func check(_ minDuration: Double) -> Bool {
            Track.hasVehicleEvidence(0...20, time: { times[$0] }, windowed: { windowed[$0] }, speed: 7, minDuration: minDuration)
        }
        #expect(check(10) && !check(10.5) && check(0))
        windowed[7] = 7   // not above: the run breaks into 4 s and 4 s
        #expect(check(4) && !check(5))
    }

    @Test("a fast stretch is evidence only when the fixes at its ends are that far apart (record 0131)")
    func evidenceChord() {
        let times = (0...30).map { Double($0) }
        let windowed = (0...30).map { $0 >= 5 && $0 <= 28 ? 8.0 : 3.0 }   // segments 5…28: fixes 4…28, 24 s
        func check(_ chord: (Int, Int) -> Double) -> Bool {
            Track.hasVehicleEvidence(0...30, time: { times[$0] }, windowed: { windowed[$0] }, chordSpeed: chord,
                                     speed: 7, minDuration: 20)
        }
        #expect(check { _, _ in .infinity })
        // A jump in the middle: the fixes around it are 3 m/s apart, whatever the window saw.
        #expect(!check { _, _ in 3 })
        // A real drive: the straight line is covered at 8 m/s.
        #expect(check { _, _ in 8 })
        // The chord is asked once, over the whole stretch: fix 4 to fix 28.
        var asked: [(Int, Int)] = []
        _ = check { i, j in asked.append((i, j)); return 3 }
        #expect(asked.count == 1 && asked[0] == (4, 28))
        // On a real track: a 30 s drive at 12 m/s inside a run is evidence; fixes drifting 300 m
        // off and back over 30 s are not, though their windowed speeds are as high.
        var drive = TrackBuilder()
        drive.run(speed: 3, seconds: 120, interval: 1); drive.run(speed: 12, seconds: 30, interval: 1); drive.run(speed: 3, seconds: 120, interval: 1)
        var jump = TrackBuilder()
        jump.run(speed: 3, seconds: 270, interval: 1)
        for i in 121...150 { jump.points[i].latitude += Double(i <= 135 ? i - 120 : 150 - i) * 20 / 111_195 }
        for (builder, expected) in [(drive, true), (jump, false)] {
            let t = builder.track
            let w = t.windowedSpeeds(halfWidth: MetricsConfiguration.default.vehicleWindowHalfWidth)
            #expect(w.contains { $0 > 7 })
            #expect(Track.hasVehicleEvidence(0...(t.points.count - 1), time: { t.points[$0].time }, windowed: { w[$0] },
                                             chordSpeed: { Track.speed(t.points[$0], t.points[$1]) },
                                             speed: 7, minDuration: 20) == expected)
        }
    }

    @Test("with evidence a window is vehicle from the threshold on, even when another class is likelier (record 0131)")
    func vehicleThreshold() {
        var classifier = ActivityClassifier.default
        var rng = SeededGenerator(seed: 7)
        var checked = 0
        for activity in [ActivityClass.vehicle, .cycle, .run] {
            for _ in 0..<6 {
                let points = SyntheticActivities.track(activity, rng: &rng)
                guard points.count > 10 else { continue }
                let windows = classifier.windowing.windows(points, from: 0, through: points.count - 1)
                let features = windows.map { SegmentFeatures(points: points[$0]) }
                for (f, v) in zip(features, ActivityClassifier.vectors(features)) where f.netSpeed >= classifier.windowing.stationarySpeed {
                    let p = classifier.forest.probabilities(v)[ActivityClass.moving.firstIndex(of: .vehicle)!]
                    for threshold in [0.2, 0.35, 0.5, 0.8] {
                        classifier.vehicleThreshold = threshold
                        #expect((classifier.classify(f, vector: v).activity == .vehicle) == (p >= threshold))
                        #expect(classifier.classify(f, vector: v, vehicleEvidence: false).activity != .vehicle)
                    }
                    if p > 0 && p < 0.5 { checked += 1 }
                }
            }
        }
        #expect(checked > 0, "no window between the thresholds")
    }

    @Test("without evidence a window the forest calls vehicle takes the forest's next class")
    func classifyWithoutEvidence() {
        let classifier = ActivityClassifier.default
        var rng = SeededGenerator(seed: 5)
        var checked = 0
        for _ in 0..<10 {
            let points = SyntheticActivities.track(.vehicle, rng: &rng)
            guard points.count > 10 else { continue }
            let windows = classifier.windowing.windows(points, from: 0, through: points.count - 1)
            let features = windows.map { SegmentFeatures(points: points[$0]) }
            for (f, v) in zip(features, ActivityClassifier.vectors(features)) where classifier.classify(f, vector: v).activity == .vehicle {
                let other = classifier.classify(f, vector: v, vehicleEvidence: false)
                let p = classifier.forest.probabilities(v)
                let best = p.indices.filter { ActivityClass.moving[$0] != .vehicle }.max { p[$0] < p[$1] }!
                #expect(other.activity == ActivityClass.moving[best] && other.probability == p[best])
                checked += 1
            }
        }
        #expect(checked > 0)
    }
}
