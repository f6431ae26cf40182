#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// A seeded, portable pseudo-random generator: xoshiro256** (Blackman & Vigna), state filled by
/// SplitMix64 from a 64-bit seed. Same seed, same sequence, on every platform: the simulation,
/// data splits and model training draw from it and write the seed into what they produce.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    public init(seed: UInt64) {
        var sm = seed
        func splitMix(_ x: inout UInt64) -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(&sm); s1 = splitMix(&sm); s2 = splitMix(&sm); s3 = splitMix(&sm)
    }

    /// A generator for a sub-stream, e.g. one per simulated runner, so that adding a runner does
    /// not change the draws of the others.
    public init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03) &+ stream)
    }

    @inlinable
    static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    public mutating func next() -> UInt64 {
        let result = Self.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = Self.rotl(s3, 45)
        return result
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [low, high).
    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * uniform()
    }

    /// A standard normal draw (Box–Muller; one of the pair is discarded to keep the state simple).
    public mutating func gaussian() -> Double {
        var u1 = uniform()
        while u1 <= .leastNormalMagnitude { u1 = uniform() }
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    /// A normal draw with the given mean and standard deviation.
    public mutating func gaussian(mean: Double, sd: Double) -> Double {
        mean + sd * gaussian()
    }

    /// `true` with probability `p`.
    public mutating func bernoulli(_ p: Double) -> Bool { uniform() < p }

    /// An integer in `range`, without modulo bias.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }
}
