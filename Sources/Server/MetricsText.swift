/// The Prometheus text exposition format, version 0.0.4 (what `promtool check metrics` reads):
/// `# HELP` and `# TYPE` once per family, then one `name{label="value"} number` line per sample.
/// Label values escape `\`, `"` and newlines; numbers are written as Swift prints a `Double`
/// (`+Inf`, `-Inf` and `NaN` as Prometheus spells them).
public struct MetricFamily: Sendable {
    public enum Kind: String, Sendable { case counter, gauge, histogram }

    public struct Sample: Sendable {
        /// The sample's name: the family's, or with `_bucket`, `_sum`, `_count` for a histogram.
        public var name: String
        public var labels: [(String, String)]
        public var value: Double

        public init(name: String, labels: [(String, String)] = [], value: Double) {
            self.name = name; self.labels = labels; self.value = value
        }
    }

    /// `runus_…`, snake case, unit last (`_seconds`, `_bytes`, `_total` for counters).
    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    public init(name: String, help: String, kind: Kind, samples: [Sample]) {
        self.name = name; self.help = help; self.kind = kind; self.samples = samples
    }

    /// A family of one unlabelled sample.
    public static func single(_ name: String, _ help: String, _ kind: Kind, _ value: Double) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: kind, samples: [Sample(name: name, value: value)])
    }
}

public enum MetricsText {
    /// Latency histogram bounds, seconds: 0.5 ms to 10 s, as an operation's service time spans.
    public static let latencyBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// The families as one exposition, LF-terminated.
    public static func render(_ families: [MetricFamily]) -> String {
        var out = ""
        for family in families {
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            out += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                out += sample.name
                if !sample.labels.isEmpty {
                    out += "{" + sample.labels.map { "\($0.0)=\"\(escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
                }
                out += " " + number(sample.value) + "\n"
            }
        }
        return out
    }

    static func number(_ x: Double) -> String {
        if x.isNaN { return "NaN" }
        if x.isInfinite { return x > 0 ? "+Inf" : "-Inf" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    /// A label value: `\`, `"` and newline escaped.
    static func escapeLabel(_ text: String) -> String { escape(text, quotes: true) }

    /// A `# HELP` text: `\` and newline escaped (quotes stand as they are).
    static func escapeHelp(_ text: String) -> String { escape(text, quotes: false) }

    private static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case "\"" where quotes: out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}

extension LineServer {
    /// The server's own families: requests and errors by operation and code, service time, open
    /// connections and the client buffers held (record 0530).
    public func metricFamilies() -> [MetricFamily] {
        let operations = router.stats.metrics(latencyBounds: MetricsText.latencyBounds).sorted { $0.key < $1.key }
        var requests: [MetricFamily.Sample] = [], errors: [MetricFamily.Sample] = [], latency: [MetricFamily.Sample] = []
        for (op, m) in operations {
            requests.append(.init(name: "runus_requests_total", labels: [("op", op)], value: Double(m.counts.requests)))
            for (code, n) in m.errorsByCode.sorted(by: { $0.key < $1.key }) {
                errors.append(.init(name: "runus_request_errors_total", labels: [("op", op), ("code", code)], value: Double(n)))
            }
            let uncoded = m.counts.errors - m.errorsByCode.values.reduce(0, +)
            if uncoded > 0 {
                errors.append(.init(name: "runus_request_errors_total", labels: [("op", op), ("code", "other")], value: Double(uncoded)))
            }
            guard m.latencyCount > 0 else { continue }
            for (bound, count) in zip(MetricsText.latencyBounds, m.latencyBuckets) {
                latency.append(.init(name: "runus_request_duration_seconds_bucket", labels: [("op", op), ("le", MetricsText.number(bound))],
                                     value: Double(count)))
            }
            latency.append(.init(name: "runus_request_duration_seconds_bucket", labels: [("op", op), ("le", "+Inf")],
                                 value: Double(m.latencyCount)))
            latency.append(.init(name: "runus_request_duration_seconds_sum", labels: [("op", op)], value: m.latencySumSeconds))
            latency.append(.init(name: "runus_request_duration_seconds_count", labels: [("op", op)], value: Double(m.latencyCount)))
        }
        return [
            MetricFamily(name: "runus_requests_total", help: "Requests answered, by operation ((invalid): lines that were no request).",
                         kind: .counter, samples: requests),
            MetricFamily(name: "runus_request_errors_total", help: "Answers with ok false, by operation and error code.",
                         kind: .counter, samples: errors),
            MetricFamily(name: "runus_request_duration_seconds", help: "Service time from the line taken to its answer ready.",
                         kind: .histogram, samples: latency),
            .single("runus_connections", "Client connections open.", .gauge, Double(connectionCount)),
            .single("runus_buffered_bytes", "Bytes held for clients (buffers and answers), record 0530.", .gauge, Double(bufferedByteCount)),
            .single("runus_buffered_bytes_peak", "The most bytes held for clients since start.", .gauge, Double(peakBufferedByteCount)),
            .single("runus_buffered_bytes_limit", "--max-buffered-bytes.", .gauge, Double(configuration.maximumBufferedBytes)),
        ]
    }
}
