import RunusCore

/// The classifier half of `LiveVehicleStage`: `ActivityClassifier.labels` (with the speed
/// rule's flags), `ActivityClassifier.merge` and `Track.suppressShortVehicles` over each part
/// the speed rule left unflagged, one segment at a time (records 0144, 0146, 0160).
///
/// Windows are cut per part (never across a rule cut), but numbered across the whole track: a
/// window's context is the unflagged windows within `wideContextWindows` of it, in earlier and
/// later parts too. What waits, and for how long (record 0160): a window's end is known once the
/// run has gone on `minPoints − 1` fixes and `windowDuration / 2` seconds past its candidate end
/// (or its part ends); its label once `wideContextWindows` more windows are known; a classifier
/// `vehicle` stretch once it lasts `vehicleClassifierMinDuration` or a foot label follows.
/// Segments are handed on in order, so rule-flagged segments after a part wait for its labels.
struct LivePartStage: Sendable {
    let classifier: ActivityClassifier?
    let minVehicleDuration: Seconds
    private let windowing: ActivityClassifier.Windowing
    /// Windows after a window that its context reads.
    private static let lookahead = max(ActivityClassifier.contextWindows, ActivityClassifier.wideContextWindows)

    /// Recent fixes, their segment lengths and rule flags: global index i is at i − base.
    private var points: [TrackPoint] = []
    private var lengths: [Meters] = []
    private var flagged: [Bool] = []
    private var base = 0
    /// Global index of the newest fix (−1 before the first).
    private var last = -1
    /// Next segment to hand on (global index of its end fix).
    private var emitted = 0

    // Window forming in the current part (a maximal stretch of segments the rule left unflagged).
    private var partOpen = false
    /// First fix of the forming window; smallest fix not yet rejected as its end.
    private var windowStart = 0
    private var scan = 0
    /// Unflagged windows of the track, numbered from 0; `windows[0]` is number `windowsBase`.
    private var windows: [Window] = []
    private var windowsBase = 0
    private var windowCount: Int { windowsBase + windows.count }
    /// Windows whose label is known (they are numbered 0..<labelled).
    private var labelled = 0
    /// The track ended (a snapshot): every window's context is complete.
    private var ended = false
    /// Parts by their window numbers; `parts[partHead]` holds the segment `frontier`.
    private var parts: [Part] = []
    private var partHead = 0

    // Labelling segments in order.
    /// Next segment to label, the window number that may hold it, the label before it in its part.
    private var frontier = 1
    private var cursor = 0
    private var inPart = false
    private var previousLabel: ActivityClass?
    /// A classifier `vehicle` stretch from this segment on, not yet decided.
    private var runFrom: Int?
    private var runStartTime: EpochSeconds = 0
    private var runIsVehicle = false
    /// A foot, cycle or stationary label was seen in this part.
    private var seenOther = false
    /// Fixes that went into window features and windows read for context, for the work count.
    private(set) var work = 0

    private struct Window: Sendable {
        var lower: Int, upper: Int
        var features: SegmentFeatures
        var label: ActivityClass?
    }

    /// A part's windows: numbers `firstWindow..<endWindow` (`endWindow` nil while it is open).
    private struct Part: Sendable {
        var firstWindow: Int
        var endWindow: Int?
    }

    init(classifier: ActivityClassifier?, minVehicleDuration: Seconds) {
        self.classifier = classifier
        self.minVehicleDuration = minVehicleDuration
        windowing = classifier?.windowing ?? ActivityClassifier.Windowing()
    }

    /// Fixes received but not handed on.
    var undecided: Int { last + 1 - emitted }

    private func time(_ i: Int) -> EpochSeconds { points[i - base].time }

    /// The next fix, with whether the speed rule flagged its segment (decided for good).
    mutating func accept<S: LiveSegmentSink>(_ step: LiveStep, flagged isFlagged: Bool, into sink: inout S) {
        if isFlagged && partOpen { closePart() }
        points.append(step.point)
        lengths.append(step.distance)
        flagged.append(isFlagged && last >= 0)
        last += 1
        guard last > 0, classifier != nil else {
            emit(last, vehicle: isFlagged && last > 0, into: &sink)
            frontier = last + 1
            trim()
            return
        }
        if !isFlagged {
            if !partOpen { openPart(at: last - 1) }
            if time(last) - time(last - 1) > windowing.maxGap {
                finishRun(through: last - 1)
                windowStart = last; scan = last + 1
            } else {
                settleWindows()
            }
        }
        labelWindows()
        labelSegments(into: &sink)
        trim()
    }

    /// Decides everything as if the track ended now.
    mutating func finish<S: LiveSegmentSink>(into sink: inout S) {
        guard classifier != nil else { return }
        if partOpen { closePart() }
        ended = true
        labelWindows()
        labelSegments(into: &sink)
        if inPart { endPart(into: &sink) }
        precondition(emitted == last + 1, "LivePartStage: \(last + 1 - emitted) segments left at the end")
    }

    private mutating func openPart(at a: Int) {
        partOpen = true
        windowStart = a; scan = a + 1
        parts.append(Part(firstWindow: windowCount))
    }

    private mutating func closePart() {
        finishRun(through: last)
        parts[parts.count - 1].endWindow = windowCount
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
        windowStart = r; scan = r + 1
    }

    /// Settles the forming window once no later fix can extend it (see the type's comment).
    private mutating func settleWindows() {
        while true {
            let a = windowStart
            if scan <= a { scan = a + 1 }
            while scan <= last && (time(scan) - time(a) < windowing.windowDuration || scan - a < windowing.minPoints - 1) { scan += 1 }
            let e = scan
            guard e <= last, last - e >= windowing.minPoints - 1,
                  time(last) - time(e) >= windowing.windowDuration / 2 else { return }
            addWindow(a, e)
            windowStart = e; scan = e + 1
        }
    }

    private mutating func addWindow(_ a: Int, _ e: Int) {
        work += e - a + 1
        windows.append(Window(lower: a, upper: e, features: SegmentFeatures(points: points[(a - base)...(e - base)])))
    }

    /// Labels windows whose context is complete (or all, once the track ended), with the
    /// classifier's own `vectors` over the windows around each.
    private mutating func labelWindows() {
        guard let classifier else { return }
        let reach = Self.lookahead
        while labelled < windowCount && (ended || windowCount > labelled + reach) {
            let k = labelled
            let lo = max(0, k - reach), hi = min(windowCount - 1, k + reach)
            let near = (lo...hi).map { windows[$0 - windowsBase].features }
            let vector = ActivityClassifier.vectors(near)[k - lo]
            windows[k - windowsBase].label = classifier.classify(windows[k - windowsBase].features, vector: vector).activity
            labelled += 1
            work += hi - lo + 1
        }
    }

    /// Labels segments in order while their label is known: a rule-flagged segment is a vehicle;
    /// in a part, a window's label, or for a gap segment (a step longer than maxGap) the label
    /// before it in the part, else the part's first label, else stationary (`merge`).
    private mutating func labelSegments<S: LiveSegmentSink>(into sink: inout S) {
        while frontier <= last {
            let s = frontier
            if flagged[s - base] {
                if inPart { endPart(into: &sink) }
                frontier += 1
                emit(s, vehicle: true, into: &sink)
                continue
            }
            if !inPart {
                inPart = true
                previousLabel = nil; runFrom = nil; seenOther = false
            }
            let label: ActivityClass
            if time(s) - time(s - 1) > windowing.maxGap {
                let part = parts[partHead]
                if let l = previousLabel { label = l }
                else if part.firstWindow < part.endWindow ?? windowCount, let l = windows[part.firstWindow - windowsBase].label { label = l }
                else if part.endWindow == part.firstWindow { label = .stationary }
                else { return }
            } else {
                while cursor < windowCount && windows[cursor - windowsBase].upper < s { cursor += 1 }
                guard cursor < windowCount, let l = windows[cursor - windowsBase].label else { return }
                label = l
            }
            previousLabel = label
            frontier += 1
            decide(s, label, into: &sink)
        }
    }

    /// The part before `frontier` ended: an undecided vehicle stretch keeps its label only when
    /// it is the whole part (Track.suppressShortVehicles).
    private mutating func endPart<S: LiveSegmentSink>(into sink: inout S) {
        if let from = runFrom, !runIsVehicle {
            for i in from..<frontier { emit(i, vehicle: !seenOther, into: &sink) }
        }
        runFrom = nil
        inPart = false
        partHead += 1
    }

    /// A classifier `vehicle` stretch shorter than the minimum takes its neighbour's label,
    /// unless it is the whole part (Track.suppressShortVehicles).
    private mutating func decide<S: LiveSegmentSink>(_ s: Int, _ label: ActivityClass, into sink: inout S) {
        guard label == .vehicle else {
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

    private mutating func emit<S: LiveSegmentSink>(_ i: Int, vehicle: Bool, into sink: inout S) {
        precondition(i == emitted, "LivePartStage: segment \(i) handed on out of order (expected \(emitted))")
        sink.accept(LiveStep(point: points[i - base], distance: lengths[i - base]), vehicle: vehicle)
        emitted += 1
    }

    /// Drops fixes, windows and parts nothing can need again (amortised O(1): only when half is
    /// dead).
    private mutating func trim() {
        var keep = min(last, emitted - 1)
        if partOpen { keep = min(keep, windowStart) }
        let dead = keep - base
        if dead > 256 && dead * 2 > points.count {
            points.removeFirst(dead); lengths.removeFirst(dead); flagged.removeFirst(dead); base = keep
        }
        var needed = min(labelled - Self.lookahead, cursor)
        if partHead < parts.count { needed = min(needed, parts[partHead].firstWindow) }
        let oldWindows = needed - windowsBase
        if oldWindows > 32 && oldWindows * 2 > windows.count {
            windows.removeFirst(oldWindows); windowsBase += oldWindows
        }
        if partHead > 32 && partHead * 2 > parts.count {
            parts.removeFirst(partHead); partHead = 0
        }
    }
}
