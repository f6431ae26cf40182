import CBLAS

/// OpenBLAS's thread pool, seen from the engine.
///
/// The engine runs BLAS on one thread (record 0006): on these 2-core machines two BLAS threads
/// are often slower than one, parallelism comes from concurrent requests, and — what matters
/// for reproducibility — the summation order inside `dsyrk`/`dgemv` depends on the thread count,
/// so a model retrained with another thread count differs in the last bits.
public enum BLASThreads {
    /// Makes every later BLAS call in this process single-threaded, whatever
    /// `OPENBLAS_NUM_THREADS` says. Call once at start-up, before any BLAS work.
    public static func useOne() {
        openblas_set_num_threads(1)
    }

    /// Makes later BLAS calls use `count` threads (>= 1). Only for measurements that compare
    /// with a peer given the same threads (`make bench-learn`); `train` and `serve` use one.
    public static func use(_ count: Int) {
        precondition(count >= 1 && count <= 1_024, "BLAS thread count \(count) outside 1...1024")
        openblas_set_num_threads(Int32(count))
    }

    /// OpenBLAS's current thread count.
    public static var count: Int { Int(openblas_get_num_threads()) }

    /// The kernel OpenBLAS chose for this CPU (e.g. "Zen", "Haswell"); results are reproducible
    /// bit for bit only on the same kernel.
    public static var kernel: String { String(cString: openblas_get_corename()) }
}
