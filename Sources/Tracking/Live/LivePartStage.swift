import RunusCore

/// The classifier half of `LiveVehicleStage`: `ActivityClassifier.segments` (with the vehicle
/// evidence of record 0130: each window's from the windowed speeds its steps carry, a rule
/// vehicle part before or after the part counting as a window) and `Track.suppressShortVehicles`
/// over each part the speed rule left unflagged, one segment at a time, as of record 0160.
///
/// What waits, and for how long (record 0160): a window's end is known once the run has gone on
/// `minPoints − 1` fixes and `windowDuration / 2` seconds past its candidate end; its label once
/// `ActivityClassifier.wideContextWindows` more windows are known (their features are its
/// context, record 0146); a classifier `vehicle` stretch once it lasts
/// `vehicleClassifierMinDuration` or a foot label follows. So at most about 12 windows plus that
/// minimum are undecided, whatever the run's length;
/// the buffer keeps only those fixes.
struct LivePartStage: Sendable {
    let classifier: ActivityClassifier?
    let minVehicleDuration: Seconds
    /// The evidence a `vehicle` window needs (record 0130): windowed speed above `vehicleSpeed`
    /// (m/s) for `minFast` seconds.
    let vehicleSpeed: Double, minFast: Seconds
    private let windowing: ActivityClassifier.Windowing

    /// Recent steps (fix, segment length, windowed speed): global index i is at i − base.
    private var steps = LiveStepBuffer()
    private var base = 0
    /// Global index of the newest fix (−1 before the first).
    private var last = -1
    /// Next segment to hand on (global index of its end fix).
    private var emitted = 0

    // The current part (a maximal stretch of segments the speed rule left unflagged).
    private var partOpen = false
    /// The part's window list is final (the part is being closed).
    private var closed = false
    /// First fix of the current run (fixes joined by steps ≤ maxGap) and of the forming window.
    private var windowStart = 0
    /// Smallest fix index not yet rejected as the forming window's end.
    private var scan = 0
    /// The time of fix `scan` once it is the forming window's end (the window has its duration
    /// and points there), NaN while it is not known to be: the settling test then needs no scan.
    private var candidateTime = EpochSeconds.nan
    /// Windows of the part, numbered from 0; `windows[0]` is number `windowsBase`.
    private var windows: [Window] = []
    private var windowsBase = 0
    private var windowCount: Int { windowsBase + windows.count }
    /// Windows whose label is known (they are numbered 0..<labelled).
    private var labelled = 0
    /// Whether the part's first window is labelled `vehicle`.
    private var firstLabel: Bool?
    /// Next segment to label, the window number that holds it, and whether the label before
    /// it is `vehicle`.
    private var frontier = 0
    private var cursor = 0
    private var previousLabel: Bool?
    /// A classifier `vehicle` stretch from this segment on, not yet decided.
    private var runFrom: Int?
    private var runStartTime: EpochSeconds = 0
    private var runIsVehicle = false
    /// The part starts after a vehicle part of the speed rule (not at the track's start), and
    /// it was closed by one (not by the track's end).
    private var partAfterVehicle = false, closedByVehicle = false
    /// A foot, cycle or stationary label was seen in this part.
    private var seenOther = false
    /// Fixes that went into window features, for the work count.
    private(set) var work = 0

    /// Only whether a label is `vehicle` matters here (`decide`), and without vehicle evidence
    /// within `ActivityClassifier.evidenceWindows` `classify` never says `vehicle` (record 0131):
    /// so a window's features are computed, and the forest run, only when the evidence of its
    /// neighbourhood lets it be `vehicle` (record 0161).
    private struct Window: Sendable {
        var lower: Int, upper: Int
        /// Computed when a window within `wideContextWindows` needs the forest.
        var features: SegmentFeatures?
        /// May be `vehicle` (`Track.hasVehicleEvidence`).
        var evidence: Bool
        /// Whether its label is `vehicle`, once known.
        var vehicle: Bool?
    }

    init(classifier: ActivityClassifier?, minVehicleDuration: Seconds, vehicleSpeed: Double, minFast: Seconds) {
        self.classifier = classifier
        self.minVehicleDuration = minVehicleDuration
        self.vehicleSpeed = vehicleSpeed
        self.minFast = minFast
        windowing = classifier?.windowing ?? ActivityClassifier.Windowing()
    }

    /// Fixes received but not handed on.
    var undecided: Int { last + 1 - emitted }

    // Inlined, so that a call from a mutating method does not copy the stage.
    @inline(__always) private func time(_ i: Int) -> EpochSeconds { steps[i - base].point.time }
    @inline(__always) private func point(_ i: Int) -> TrackPoint { steps[i - base].point }

    /// Makes this copy (a snapshot's) write what it adds apart from the steps it shares with the
    /// tracker's stage, so that it never copies them (record 0161).
    mutating func detach() { steps.detach() }

    /// The next fix, with whether the speed rule flagged its segment (decided for good).
    mutating func accept<S: LiveSegmentSink>(_ step: LiveStep, flagged: Bool, into sink: inout S) {
        if flagged && partOpen { closedByVehicle = true; closePart(into: &sink) }
        steps.append(step)
        last += 1
        guard last > 0, !flagged, classifier != nil else {
            emit(last, vehicle: flagged, into: &sink)
            trim()
            return
        }
        var changed = !partOpen
        if !partOpen { openPart(at: last - 1) }
        if step.point.time - time(last - 1) > windowing.maxGap {
            finishRun(through: last - 1)
            windowStart = last; scan = last + 1; candidateTime = .nan
            changed = true
        } else if settleWindows(newestTime: step.point.time) {
            changed = true
        }
        // Without a new window nothing else can move (record 0170): the labels wait for windows,
        // the segments for labels (the newest fix is in no window yet), and what can be dropped
        // for what was handed on.
        guard changed else { return }
        labelWindows()
        labelSegments(into: &sink)
        trim()
    }

    /// The fixes received but not handed on, oldest first.
    func forEachUndecided(_ body: (LiveStep) -> Void) {
        for i in emitted..<(last + 1) {
            body(steps[i - base])
        }
    }

    /// Decides everything as if the part ended now.
    mutating func finish<S: LiveSegmentSink>(into sink: inout S) {
        if partOpen { closePart(into: &sink) }
    }

    private mutating func openPart(at a: Int) {
        partOpen = true; closed = false
        partAfterVehicle = a > 0; closedByVehicle = false
        windowStart = a; scan = a + 1; candidateTime = .nan
        windows = []; windowsBase = 0; labelled = 0; firstLabel = nil
        frontier = a + 1; cursor = 0; previousLabel = nil
        runFrom = nil; seenOther = false
    }

    private mutating func closePart<S: LiveSegmentSink>(into sink: inout S) {
        finishRun(through: last)
        closed = true
        labelWindows()
        labelSegments(into: &sink)
        if let from = runFrom, !runIsVehicle {
            // An undecided vehicle stretch keeps its label only when it is the whole part.
            for i in from...last { emit(i, vehicle: !seenOther, into: &sink) }
        }
        runFrom = nil
        partOpen = false
    }

    /// Cuts the forming window(s) of a run ending at fix `r` as `Windowing.windows` does.
    private mutating func finishRun(through r: Int) {
        var a = windowStart
        while a < r {
            var e = a + 1
            while e < r && (time(e) - time(a) < windowing.windowDuration || e - a < windowing.minPoints - 1) { e += 1 }
            if r - e < windowing.minPoints - 1 || time(r) - time(e) < windowing.windowDuration / 2 { e = r }
            addWindow(a, e)
            a = e
        }
        windowStart = r; scan = r + 1; candidateTime = .nan
    }

    /// Settles the forming window once no later fix can extend it (see the type's comment), given
    /// the newest fix's time; whether a window was settled.
    @inline(__always) private mutating func settleWindows(newestTime: EpochSeconds) -> Bool {
        // The common case: the end is known and the window not yet settled (the guard below).
        if !candidateTime.isNaN
            && !(last - scan >= windowing.minPoints - 1 && newestTime - candidateTime >= windowing.windowDuration / 2) {
            return false
        }
        var settled = false
        while true {
            let a = windowStart
            if scan <= a { scan = a + 1 }
            while scan <= last && (time(scan) - time(a) < windowing.windowDuration || scan - a < windowing.minPoints - 1) { scan += 1 }
            let e = scan
            candidateTime = e <= last ? time(e) : .nan
            guard e <= last, last - e >= windowing.minPoints - 1,
                  newestTime - time(e) >= windowing.windowDuration / 2 else { return settled }
            addWindow(a, e)
            windowStart = e; scan = e + 1; candidateTime = .nan
            settled = true
        }
    }

    private mutating func addWindow(_ a: Int, _ e: Int) {
        work += e - a + 1
        let evidence = Track.hasVehicleEvidence(a...e, time: { time($0) }, windowed: { steps[$0 - base].windowedSpeed },
                                                chordSpeed: { Track.speed(point($0), point($1)) },
                                                speed: vehicleSpeed, minDuration: minFast)
        windows.append(Window(lower: a, upper: e, features: nil, evidence: evidence))
    }

    /// The features of window `j` (computed once, from the same fixes as batch's).
    private mutating func features(_ j: Int) -> SegmentFeatures {
        if let f = windows[j - windowsBase].features { return f }
        let w = windows[j - windowsBase]
        work += w.upper - w.lower + 1
        let f = SegmentFeatures(points: ArraySlice((w.lower...w.upper).map(point)))
        windows[j - windowsBase].features = f
        return f
    }

    /// Labels windows whose context is complete (or all, once the part is closed).
    @inline(__always) private mutating func labelWindows() {
        // Not `guard let`: binding copies the classifier (a retain of each of its arrays) on
        // every call, and only a window with evidence needs it.
        guard classifier != nil else { return }
        let context = ActivityClassifier.evidenceWindows, wide = ActivityClassifier.wideContextWindows
        while labelled < windowCount && (closed || windowCount > labelled + wide) {
            let k = labelled
            // A rule vehicle part before or after this part counts as a window with evidence.
            let evidence = (max(0, k - context)...min(windowCount - 1, k + context)).contains { windows[$0 - windowsBase].evidence }
                || (partAfterVehicle && k < context) || (closedByVehicle && k >= windowCount - context)
            var label = false   // without evidence, `classify` gives a foot, cycle or stationary label
            if evidence, let classifier {
                let lo = max(0, k - wide), hi = min(windowCount - 1, k + wide)
                let near = (lo...hi).map { features($0) }
                let vector = ActivityClassifier.vector(at: k - lo, in: near)
                label = classifier.classify(near[k - lo], vector: vector, vehicleEvidence: true).activity == .vehicle
            }
            windows[k - windowsBase].vehicle = label
            if k == 0 { firstLabel = label }
            labelled += 1
        }
    }

    /// Labels segments in order while their label is known: a window's, or for a gap segment
    /// (a step longer than maxGap) the label before it, else the part's first label.
    @inline(__always) private mutating func labelSegments<S: LiveSegmentSink>(into sink: inout S) {
        while frontier <= last {
            let s = frontier
            let label: Bool
            if time(s) - time(s - 1) > windowing.maxGap {
                if let l = previousLabel ?? firstLabel { label = l }
                else if closed && windowCount == 0 { label = false }   // stationary
                else { return }
            } else {
                while cursor < windowCount && windows[cursor - windowsBase].upper < s { cursor += 1 }
                guard cursor < windowCount, let l = windows[cursor - windowsBase].vehicle else { return }
                if !l && runFrom == nil && !S.readsSteps {
                    // The window's segments from s on (no gap inside a window): foot, as `decide`
                    // would hand them on one by one.
                    let upper = min(last, windows[cursor - windowsBase].upper)
                    previousLabel = false
                    seenOther = true
                    frontier = upper + 1
                    precondition(s == emitted, "LivePartStage: segment \(s) handed on out of order (expected \(emitted))")
                    sink.accept(count: upper - s + 1, vehicle: false)
                    emitted = upper + 1
                    continue
                }
                label = l
            }
            previousLabel = label
            frontier += 1
            decide(s, label, into: &sink)
        }
    }

    /// A classifier `vehicle` stretch shorter than the minimum takes its neighbour's label,
    /// unless it is the whole part (Track.suppressShortVehicles).
    private mutating func decide<S: LiveSegmentSink>(_ s: Int, _ vehicle: Bool, into sink: inout S) {
        guard vehicle else {
            if let from = runFrom {
                if !runIsVehicle { for i in from..<s { emit(i, vehicle: false, into: &sink) } }
                runFrom = nil
            }
            seenOther = true
            emit(s, vehicle: false, into: &sink)
            return
        }
        if runFrom == nil { runFrom = s; runStartTime = time(s - 1); runIsVehicle = false }
        if runIsVehicle {
            emit(s, vehicle: true, into: &sink)
        } else if time(s) - runStartTime >= minVehicleDuration {
            runIsVehicle = true
            for i in runFrom!...s { emit(i, vehicle: true, into: &sink) }
        }
    }

    @inline(__always) private mutating func emit<S: LiveSegmentSink>(_ i: Int, vehicle: Bool, into sink: inout S) {
        precondition(i == emitted, "LivePartStage: segment \(i) handed on out of order (expected \(emitted))")
        sink.accept(steps[i - base], vehicle: vehicle)
        emitted += 1
    }

    /// Drops fixes and windows nothing can need again (amortised O(1): only when half is dead).
    @inline(__always) private mutating func trim() {
        var keep = min(last, emitted - 1)
        if partOpen {
            keep = min(keep, windowStart, frontier - 1)
            // The fixes of windows whose features a later label may still need.
            let oldest = max(labelled - ActivityClassifier.wideContextWindows, windowsBase)
            if oldest < windowCount { keep = min(keep, windows[oldest - windowsBase].lower) }
        }
        let dead = keep - base
        if dead > 256 && dead * 2 > steps.count && !steps.detached {
            steps.removeFirst(dead); base = keep
        }
        let oldWindows = min(labelled - ActivityClassifier.wideContextWindows, cursor) - windowsBase
        if oldWindows > 32 && oldWindows * 2 > windows.count {
            windows.removeFirst(oldWindows); windowsBase += oldWindows
        }
    }
}
