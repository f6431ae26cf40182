import RunusCore

/// `LivePartStage`'s steps: one array, and, in a snapshot's copy (`detach()`), a second one for
/// the steps the copy adds, so that the copy reads the tracker's array without writing to it
/// (a write would copy the whole tail, record 0161).
struct LiveStepBuffer: Sendable {
    private var rows: [LiveStep] = []
    private var extra: [LiveStep] = []
    /// Whether appends go to `extra` (a snapshot's copy); it then never drops steps.
    private(set) var detached = false

    var count: Int { rows.count + extra.count }

    subscript(i: Int) -> LiveStep { i < rows.count ? rows[i] : extra[i - rows.count] }

    mutating func append(_ step: LiveStep) {
        if detached { extra.append(step) } else { rows.append(step) }
    }

    mutating func removeFirst(_ n: Int) {
        precondition(!detached, "LiveStepBuffer: a detached copy drops no steps")
        rows.removeFirst(n)
    }

    mutating func detach() { detached = true }
}
