import DrawProtocol

/// Where the lobby draws player ids, tokens, room codes and room seeds from.
///
/// In production this is the operating system's cryptographic generator, so tokens and
/// room codes cannot be guessed; tests and `--seed` use a seeded generator instead so
/// that a whole session replays exactly.
public struct RandomSource: RandomNumberGenerator, Sendable {
    private var seeded: SeededRandom?

    /// The system's cryptographically secure generator.
    public static var system: RandomSource { RandomSource(seeded: nil) }
    /// A deterministic generator: never for production tokens.
    public static func seeded(_ seed: UInt64) -> RandomSource { RandomSource(seeded: SeededRandom(seed: seed)) }

    public var isDeterministic: Bool { seeded != nil }

    public mutating func next() -> UInt64 {
        if var generator = seeded {
            defer { seeded = generator }
            return generator.next()
        }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }

    /// `count` characters drawn uniformly from `alphabet`.
    public mutating func string(count: Int, from alphabet: [Character]) -> String {
        String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &self)] })
    }
}
