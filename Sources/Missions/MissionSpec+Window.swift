import RunusCore

extension MissionSpec {
    /// Local days an offer of this mission stays open when the daily policy offers it on `day`,
    /// its offer day included, or nil for a mission the runner tries with one run of its day
    /// (records 0650 and 0655). A streak of `n` days is open for `n` days (the longest it can
    /// take from the offer day) and ends sooner, at the end of the first of them without a run
    /// (`endsOnRestDay`); a weekly volume is open until the end of `day`'s calendar week
    /// (Sunday: 7 days from a Monday, 1 from a Sunday), whatever days the runner rests. Every
    /// run of the window counts toward such an offer.
    public func policyOfferWindow(offeredOn day: CivilDate) -> Int? {
        switch self {
        case .streak(let n): return max(1, n)
        case .weeklyVolume: return 8 - day.isoWeekday
        default: return nil
        }
    }

    /// Whether an open offer of this mission is over at the end of a day of its window without
    /// a run: a streak is, because the days in a row would have to start after that day, and
    /// its window ends before they could be `n`. A weekly volume is not: the week's other days
    /// can still add the distance.
    public var endsOnRestDay: Bool {
        if case .streak = self { return true }
        return false
    }
}
