import DrawProtocol

/// A small, fast, seedable generator (xoshiro256**) so that a game replays exactly from its seed.
///
/// The standard library's `SystemRandomNumberGenerator` cannot be seeded, and tests and
/// replays need the same words, hints and reveal order on every platform. The state is
/// expanded from the 64-bit seed with splitmix64, as the xoshiro authors recommend, which
/// also guarantees the all-zero state (a fixed point of xoshiro) never occurs.
public struct SeededRandom: RandomNumberGenerator, Sendable, Codable, Equatable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Any seed is valid, including 0.
    public init(seed: UInt64) {
        var mixer = seed
        s0 = Self.splitMix64(&mixer)
        s1 = Self.splitMix64(&mixer)
        s2 = Self.splitMix64(&mixer)
        s3 = Self.splitMix64(&mixer)
    }

    /// The next 64 random bits (xoshiro256** 1.0).
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, by: 45)
        return result
    }

    private func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 - amount))
    }

    private static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RandomNumberGenerator {
    /// A uniform integer in `0..<bound` (0 when `bound <= 0`).
    ///
    /// Implemented here (Lemire's multiply-and-reject) rather than relying on the
    /// standard library's `Int.random(in:using:)` / `shuffled(using:)`, whose exact
    /// consumption of random bits is not a documented guarantee: seeded games must
    /// replay identically across toolchain versions.
    public mutating func uniformIndex(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// Fisher–Yates shuffle with `uniformIndex(below:)`, stable across toolchains for a given generator.
    public mutating func shuffle<Element>(_ elements: inout [Element]) {
        var index = elements.count - 1
        while index > 0 {
            let other = uniformIndex(below: index + 1)
            if other != index { elements.swapAt(index, other) }
            index -= 1
        }
    }
}
