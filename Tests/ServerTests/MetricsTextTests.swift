import Testing
@testable import Server

@Suite("the Prometheus text format (record 0559)")
struct MetricsTextTests {
    @Test("label values escape backslash, quote and newline; numbers as Prometheus spells them")
    func escaping() {
        let family = MetricFamily(name: "runus_x", help: "a\\b\nc", kind: .gauge, samples: [
            .init(name: "runus_x", labels: [("op", "a\"b\\c\nd")], value: 1.5),
            .init(name: "runus_x", labels: [("op", "inf")], value: .infinity),
            .init(name: "runus_x", labels: [("op", "nan")], value: .nan),
            .init(name: "runus_x", value: 3),
        ])
        #expect(MetricsText.render([family]) == """
            # HELP runus_x a\\\\b\\nc
            # TYPE runus_x gauge
            runus_x{op="a\\"b\\\\c\\nd"} 1.5
            runus_x{op="inf"} +Inf
            runus_x{op="nan"} NaN
            runus_x 3

            """)
    }

    @Test("a histogram's buckets are cumulative, never above the count, and each counts only buckets wholly under its bound")
    func histogram() {
        var h = LatencyHistogram()
        for us: UInt64 in [100, 400, 900, 1_000, 20_000, 3_000_000, 50_000_000] { h.record(microseconds: us) }
        let counts = MetricsText.latencyBounds.map { h.count(atMost: UInt64($0 * 1_000_000)) }
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(counts.last! <= h.total && h.total == 7)
        #expect(counts.first == 2, "100 and 400 µs are under 0.5 ms: \(counts)")
        #expect(h.sumMicroseconds == 53_022_400)
    }
}
