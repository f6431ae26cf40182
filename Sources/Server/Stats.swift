import RunusCore
import Synchronization

/// Request counts, error counts and latency percentiles per operation, safe to update from
/// any thread. Lines that never reached an operation are counted under `invalidOp` (bad JSON,
/// not a request, line too long, not authenticated) or `unknownOp` (so hostile op names cannot
/// grow the table). Latency is service time: from the line being taken off the connection to
/// its answer being ready (queueing in the worker pool included), in microseconds.
public final class Stats: Sendable {
    public struct Counts: Sendable, Equatable {
        /// Requests answered, >= 0.
        public var requests: Int = 0
        /// Of those, answers with `ok:false`, 0...requests.
        public var errors: Int = 0

        public init(requests: Int = 0, errors: Int = 0) {
            self.requests = requests
            self.errors = errors
        }
    }

    /// One operation's latency summary, in milliseconds (µs resolution, bucketed to within
    /// 12.5 %, decision 0511); `max` is exact.
    public struct Latency: Sendable, Equatable {
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var max: Double
    }

    public static let invalidOp = "(invalid)"
    public static let unknownOp = "(unknown)"

    private struct Entry {
        var counts = Counts()
        var latency = LatencyHistogram()
        /// Errors by error code (`ErrorCode.rawValue`), when the code was known.
        var codes: [String: Int] = [:]
    }

    private let table = Mutex<[String: Entry]>([:])

    public init() {}

    /// Counts one answer; `microseconds` is its service time (nil: not measured).
    public func record(op: String, ok: Bool, microseconds: UInt64? = nil, code: ErrorCode? = nil) {
        table.withLock { table in
            Self.update(&table[op, default: Entry()], ok: ok, microseconds: microseconds, code: code)  // one hash lookup
        }
    }

    private static func update(_ entry: inout Entry, ok: Bool, microseconds: UInt64?, code: ErrorCode?) {
        entry.counts.requests += 1
        if !ok {
            entry.counts.errors += 1
            if let code { entry.codes[code.rawValue, default: 0] += 1 }
        }
        if let microseconds { entry.latency.record(microseconds: microseconds) }
    }

    /// One operation as `/metrics` shows it (`MetricsText`).
    struct OperationMetrics: Sendable {
        var counts: Counts
        var errorsByCode: [String: Int]
        /// Timed samples at or below each of `MetricsText.latencyBounds`, cumulative.
        var latencyBuckets: [UInt64]
        var latencyCount: UInt64
        var latencySumSeconds: Double
    }

    /// Every operation's counts, codes and latency histogram at the given bounds (seconds).
    func metrics(latencyBounds: [Double]) -> [String: OperationMetrics] {
        table.withLock { table in
            table.mapValues { e in
                OperationMetrics(counts: e.counts, errorsByCode: e.codes,
                                 latencyBuckets: latencyBounds.map { e.latency.count(atMost: UInt64($0 * 1_000_000)) },
                                 latencyCount: e.latency.total, latencySumSeconds: Double(e.latency.sumMicroseconds) / 1_000_000)
            }
        }
    }

    public func snapshot() -> [String: Counts] { table.withLock { $0.mapValues(\.counts) } }

    /// Latency summary per operation that has timed samples.
    public func latencies() -> [String: Latency] {
        table.withLock { table in
            table.compactMapValues { entry in
                let h = entry.latency
                guard h.total > 0 else { return nil }
                return Latency(p50: Double(h.quantile(0.5)) / 1000, p90: Double(h.quantile(0.9)) / 1000,
                               p99: Double(h.quantile(0.99)) / 1000, max: Double(h.maxMicroseconds) / 1000)
            }
        }
    }

    /// `{"op":{"errors":n,"requests":n,"p50_ms":x,"p90_ms":x,"p99_ms":x,"max_ms":x},…}`: the
    /// `operations` object of the `stats` operation (percentile keys only for timed ops).
    public func json() -> JSONValue {
        let entries = table.withLock { $0 }
        return .object(entries.mapValues { entry in
            var object: [String: JSONValue] = [
                "requests": .number(Double(entry.counts.requests)),
                "errors": .number(Double(entry.counts.errors)),
            ]
            let h = entry.latency
            if h.total > 0 {
                object["p50_ms"] = .number(Double(h.quantile(0.5)) / 1000)
                object["p90_ms"] = .number(Double(h.quantile(0.9)) / 1000)
                object["p99_ms"] = .number(Double(h.quantile(0.99)) / 1000)
                object["max_ms"] = .number(Double(h.maxMicroseconds) / 1000)
            }
            return .object(object)
        })
    }
}
