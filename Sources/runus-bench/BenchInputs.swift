import Foundation
import TrackFormats

/// The files of a benchmark read once into memory (gzip decompressed, so that no pass times it),
/// and the timing helper every mode uses: one warm-up, then `runs` passes, the median.
struct BenchInputs {
    /// Each file's name and decompressed bytes, in the order given.
    let files: [(name: String, bytes: [UInt8])]

    /// - Throws: `BenchError` naming a file that cannot be read; a gzip error from `Gzip`.
    init(paths: [String]) throws {
        files = try paths.map { path in
            guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("\(path): cannot be read") }
            var bytes = [UInt8](data)
            if Gzip.isGzip(bytes) { bytes = try Gzip.decompress(bytes, name: path) }
            return (path, bytes)
        }
    }

    /// Total size of the decompressed files in bytes.
    var byteCount: Int { files.reduce(0) { $0 + $1.bytes.count } }

    /// Median wall time in seconds of `runs` calls of `body` after one untimed call.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<runs {
            let d = try clock.measure { try body() }
            times.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        return times.sorted()[times.count / 2]
    }

    /// `values` as one JSON object with sorted keys (numbers in Swift's shortest round-trip form).
    static func json(_ values: [String: Double]) -> String {
        "{" + values.keys.sorted().map { "\"\($0)\":\(number(values[$0]!))" }.joined(separator: ",") + "}"
    }

    private static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)"
    }
}

/// A benchmark that cannot run: the file or the value, and what was wrong.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
