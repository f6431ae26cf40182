import Foundation
import RunusCore
import Storage
import PostgresStorage

/// The outage half of `runus-bench store`: the server is stopped (`pg_ctl stop -m fast`) under a
/// store with open connections, and started again. Timed: the first request after the stop
/// (its connection is found dead, a new one refused), the median of the next 20 (failing fast
/// inside the reconnect backoff), and from the restart to the first request that succeeds.
struct OutageBench {
    let uri: String
    let data: String
    let bin: String

    func run() throws -> [String: Double] {
        let store = try PostgresStore(uri: uri, configuration: .daemon, log: { _ in })
        defer { try? store.close() }
        try store.upsertUser(UserProfile(id: "outage"))
        _ = try store.user(id: "outage")
        try control("stop", "-m", "fast")
        var result: [String: Double] = [:]
        func ms(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1000 }  // to the microsecond
        result["outage_first_request_ms"] = ms(try failing { _ = try store.user(id: "outage") })
        var fast: [Double] = []
        for _ in 0..<20 { fast.append(try failing { _ = try store.user(id: "outage") }) }
        result["outage_next_requests_median_ms"] = ms(fast.sorted()[fast.count / 2])
        try control("start", "-l", data + "/../server.log")
        let back = ContinuousClock.now
        var attempts = 0
        while (try? store.user(id: "outage")) == nil {
            attempts += 1
            guard attempts < 2000 else { throw BenchError("the store did not come back within 2000 attempts") }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let d = ContinuousClock.now - back
        result["outage_back_after_restart_ms"] = ms(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        return result
    }

    /// Seconds a request took to fail; it must fail.
    private func failing(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        do {
            try body()
        } catch let error as StorageError where error.unavailableReason != nil {
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        throw BenchError("a request succeeded with the server stopped")
    }

    /// `pg_ctl ACTION -D data -w …`, as the server's owner when run as root. Spawned and
    /// waited for with posix_spawn and waitpid: Foundation's Process waits for every holder of
    /// its pipes, and the server pg_ctl starts keeps them.
    private func control(_ action: String, _ extra: String...) throws {
        let pgCtl = bin + "/pg_ctl"
        let arguments = getuid() == 0
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", pgCtl, action, "-D", data, "-w", "-s"] + extra
            : [pgCtl, action, "-D", data, "-w", "-s"] + extra
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0 else {
            throw BenchError("cannot run \(arguments[0])")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw BenchError("pg_ctl \(action) failed (wait status \(status))") }
    }
}
