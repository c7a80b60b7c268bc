import DrawProtocol

/// Points for a turn (protocol section 4, "Scoring"); docs/GAME.md has worked examples.
///
/// Integers only, so every server and every replay computes the same totals.
///
/// Guesser: `50 + 350 * remaining / drawTime + 100 * (guesserCount - guessOrder) / guesserCount`
/// where `remaining = drawTime - elapsed` (clamped to `0...drawTime`). The time part
/// rewards reading the drawing early (50...400); the order part (100 for the first
/// guesser, falling to 100/guesserCount for the last) breaks near-ties in favour of whoever
/// was first. Range 50...500.
///
/// Drawer: `sum(guesserPoints) / (2 * max(guesserCount, guessed))`, i.e. half the average
/// a correct guesser earned times the fraction of guessers who got it. A drawing only one
/// of many players understood earns little; one everybody got quickly earns up to 250.
public enum Scoring {
    /// A correct guess, however late, earns at least this.
    public static let minimumGuesserPoints = 50
    /// The most one correct guess can earn: instant and first.
    public static let maximumGuesserPoints = 500
    /// The time-dependent part, from 0 (guessed at the buzzer) to this (guessed at once).
    public static let timeBonus = 350
    /// The order-dependent part for the first correct guesser.
    public static let orderBonus = 100

    /// Points for a correct guess.
    /// - Parameters:
    ///   - elapsedMs: time since drawing started; clamped to `0...drawTimeMs`.
    ///   - drawTimeMs: length of the drawing phase; 0 or less gives no time part.
    ///   - guessOrder: 0 for the first correct guesser of the turn, 1 for the second, ...
    ///   - guesserCount: players able to guess this turn (drawer and spectators excluded);
    ///     raised to `guessOrder + 1` if a late joiner makes it inconsistent.
    public static func guesserPoints(elapsedMs: Int, drawTimeMs: Int, guessOrder: Int, guesserCount: Int) -> Int {
        var timePart = 0
        if drawTimeMs > 0 {
            let remaining = min(max(drawTimeMs - max(elapsedMs, 0), 0), drawTimeMs)
            timePart = scaled(timeBonus, numerator: remaining, denominator: drawTimeMs)
        }
        let order = max(guessOrder, 0)
        let guessers = max(guesserCount, order + 1)
        let orderPart = scaled(orderBonus, numerator: guessers - order, denominator: guessers)
        return minimumGuesserPoints + timePart + orderPart
    }

    /// Points for the drawer at the end of a turn; 0 when nobody guessed.
    /// - Parameters:
    ///   - guesserPoints: what each correct guesser earned this turn (each clamped to 0...500).
    ///   - guesserCount: players able to guess this turn, guessed or not.
    public static func drawerPoints(guesserPoints: [Int], guesserCount: Int) -> Int {
        guard !guesserPoints.isEmpty else { return 0 }
        let total = guesserPoints.reduce(0) { $0 + min(max($1, 0), maximumGuesserPoints) }
        let guessers = max(guesserCount, guesserPoints.count, 1)
        return total / (2 * guessers)
    }

    /// `value * numerator / denominator` rounded down, for `0 <= numerator <= denominator`,
    /// without overflowing when a caller passes huge millisecond counts.
    private static func scaled(_ value: Int, numerator: Int, denominator: Int) -> Int {
        let (high, low) = value.multipliedFullWidth(by: numerator)
        return denominator.dividingFullWidth((high, low)).quotient
    }
}
