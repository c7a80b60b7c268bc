import DrawProtocol
import Rooms

/// How a level plays: when it guesses, how often it gets things wrong, how quickly it
/// draws and how chatty it is. Fractions are of the turn's draw time.
public struct BotStyle: Sendable, Equatable {
    /// When the first guess comes, as a fraction of the draw time.
    public var firstGuess: ClosedRange<Double>
    /// Milliseconds between guesses.
    public var guessInterval: ClosedRange<Int>
    /// Chance that a guess is a slip: a misspelt candidate or a word of the wrong shape.
    public var mistakeRate: Double
    /// Chance per guess of naming a drawing it has recognised (it knows that drawing).
    public var recognition: Double
    /// Guesses at random from the candidates only when at most this many fit the mask.
    public var maxCandidatesToTry: Int
    /// The share of the draw time a replayed drawing is stretched or squeezed to.
    public var drawShare: ClosedRange<Double>
    /// Milliseconds of "thinking" before choosing a word.
    public var chooseDelay: ClosedRange<Int>
    /// Chance of a chat line at a moment that invites one (a greeting, a game's end).
    public var chattiness: Double

    /// Tuned against a simulated attentive person (`Tests/BotsTests/BotBalanceTests`, figures
    /// in docs/GAME.md "Bot balance"): easy loses to it clearly, hard is an even match. Most of
    /// a bot's edge is how early it names a drawing it knows (`firstGuess`, `recognition`).
    public static func forLevel(_ level: BotLevel) -> BotStyle {
        switch level {
        case .easy:
            BotStyle(firstGuess: 0.5...0.75, guessInterval: 7_000...11_000, mistakeRate: 0.35, recognition: 0.2,
                     maxCandidatesToTry: 6, drawShare: 0.75...0.9, chooseDelay: 2_000...4_500, chattiness: 0.5)
        case .normal:
            BotStyle(firstGuess: 0.35...0.55, guessInterval: 4_500...7_500, mistakeRate: 0.2, recognition: 0.5,
                     maxCandidatesToTry: 12, drawShare: 0.6...0.75, chooseDelay: 1_200...3_000, chattiness: 0.4)
        case .hard:
            BotStyle(firstGuess: 0.3...0.5, guessInterval: 3_000...5_000, mistakeRate: 0.1, recognition: 0.7,
                     maxCandidatesToTry: 30, drawShare: 0.45...0.6, chooseDelay: 700...1_500, chattiness: 0.3)
        }
    }
}
