import Testing
@testable import RunusCore

@Suite("CivilDate")
struct CivilDateTests {
    /// Oracle: walk day by day from 1970-01-01 with the month-length table.
    @Test("days-from-civil matches a day-by-day walk over 1960...2040")
    func matchesWalk() {
        var y = 1970, m = 1, d = 1
        for days in 0..<(70 * 366) {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.year == y && date.month == m && date.day == d, "day \(days)")
            #expect(date.daysSinceEpoch == days)
            d += 1
            if d > CivilDate.daysIn(month: m, year: y) { d = 1; m += 1 }
            if m > 12 { m = 1; y += 1 }
        }
        // And backwards before the epoch.
        #expect(CivilDate(daysSinceEpoch: -1).description == "1969-12-31")
        #expect(CivilDate(daysSinceEpoch: -365).description == "1969-01-01")
    }

    @Test("ISO text round-trips and rejects impossible days", arguments: [
        ("2026-11-29", true), ("2024-02-29", true), ("2026-02-29", false), ("2026-13-01", false),
        ("2026-1-01", false), ("20x6-01-01", false),
    ])
    func parse(text: String, valid: Bool) {
        let date = CivilDate(iso: text)
        #expect((date != nil) == valid)
        if let date { #expect(date.description == text) }
    }

    @Test("weekday: 2026-11-29 is a Sunday, 1970-01-01 a Thursday")
    func weekday() {
        #expect(CivilDate(iso: "2026-11-29")!.isoWeekday == 7)
        #expect(CivilDate(iso: "1970-01-01")!.isoWeekday == 4)
        #expect(CivilDate(iso: "1969-12-29")!.isoWeekday == 1)
    }

    @Test("local day respects the UTC offset")
    func localDay() {
        // 2026-11-29T23:30:00Z is already 2026-11-30 in UTC+1.
        let instant = Double(CivilDate(iso: "2026-11-29")!.daysSinceEpoch * 86_400 + 23 * 3600 + 1800)
        #expect(CivilDate(instant: instant, utcOffset: 0).description == "2026-11-29")
        #expect(CivilDate(instant: instant, utcOffset: 3600).description == "2026-11-30")
        #expect(CivilDate(instant: instant, utcOffset: -12 * 3600).description == "2026-11-29")
    }
}

@Suite("SeededGenerator")
struct SeededGeneratorTests {
    @Test("same seed gives the same sequence; another seed or stream does not")
    func determinism() {
        var a = SeededGenerator(seed: 42), b = SeededGenerator(seed: 42), c = SeededGenerator(seed: 43)
        var d = SeededGenerator(seed: 42, stream: 1)
        let sa = (0..<100).map { _ in a.next() }
        #expect(sa == (0..<100).map { _ in b.next() })
        #expect(sa != (0..<100).map { _ in c.next() })
        #expect(sa != (0..<100).map { _ in d.next() })
    }

    @Test("uniform and gaussian draws have the right moments")
    func moments() {
        var g = SeededGenerator(seed: 7)
        let n = 200_000
        var sum = 0.0, sumSq = 0.0, uSum = 0.0
        for _ in 0..<n {
            let x = g.gaussian(); sum += x; sumSq += x * x
            uSum += g.uniform()
        }
        // Standard error of the mean is 1/sqrt(n) ≈ 0.0022; allow 5 standard errors.
        let tolerance = 5 / Double(n).squareRoot()
        #expect(abs(sum / Double(n)) < tolerance)
        #expect(abs(sumSq / Double(n) - 1) < 3 * tolerance * 2.0.squareRoot())
        #expect(abs(uSum / Double(n) - 0.5) < tolerance)
    }
}
