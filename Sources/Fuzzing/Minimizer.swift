/// Greedy minimization of a failing sequence whose last element is the trigger (record 0540):
/// chunks of the earlier elements are dropped, halving the chunk size down to one element, and
/// each drop that still reproduces is kept (delta debugging's complement step, without the
/// subset step). At most `maximumProbes` calls of `reproduces`.
public enum Minimizer {
    public static func minimize<T>(_ items: [T], maximumProbes: Int = 64,
                                   reproduces: ([T]) throws -> Bool) rethrows -> (items: [T], probes: Int) {
        guard items.count > 1 else { return (items, 0) }
        var current = items
        var probes = 0
        var chunk = max(1, (current.count - 1) / 2)
        while probes < maximumProbes {
            var start = 0
            var removed = false
            while start < current.count - 1, probes < maximumProbes {
                let end = min(start + chunk, current.count - 1)
                let candidate = Array(current[0..<start] + current[end...])
                probes += 1
                if try reproduces(candidate) {
                    current = candidate
                    removed = true
                } else {
                    start = end
                }
            }
            // Single elements: pass again while a pass removes something.
            if chunk == 1 {
                if !removed { break }
            } else {
                chunk = max(1, chunk / 2)
            }
        }
        return (current, probes)
    }
}
