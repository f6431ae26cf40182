import RunusCore

extension MissionSpec {
    /// Local days an offer of this mission stays open when the daily policy offers it, its offer
    /// day included (record 0650): a streak of `n` days is open for `n` days (the longest it can
    /// take from the offer day) and ends sooner, at the end of the first of them without a run
    /// (`endsOnRestDay`); every other kind is open on its offer day only.
    public var offerWindowDays: Int {
        switch self {
        case .streak(let n): return max(1, n)
        default: return 1
        }
    }

    /// Whether an open offer of this mission is over at the end of a day of its window without
    /// a run: a streak is, because the days in a row would have to start after that day, and
    /// its window ends before they could be `n`.
    public var endsOnRestDay: Bool {
        if case .streak = self { return true }
        return false
    }
}
