import Bots
import DrawProtocol
import Foundation
import Rooms

/// Many seeded games of the person against bots of one level: how often it wins and the
/// mean scores, for `BotBalanceTests` and docs/GAME.md.
struct BalanceFigures: CustomStringConvertible {
    var level: BotLevel
    var games = 0
    var personWins = 0
    var personTotal = 0
    var botTotal = 0
    var botSeats = 0

    /// Plays the games one after another on a thread of its own (`offPool`).
    static func measure(level: BotLevel, bots: Int, seeds: Range<UInt64>, model: PersonModel = .attentive, style: BotStyle? = nil) async -> BalanceFigures {
        await offPool {
            var figures = BalanceFigures(level: level)
            for seed in seeds {
                var match = BalanceMatch(level: level, bots: bots, seed: seed, model: model, style: style)
                figures.add(match.play())
            }
            return figures
        }
    }

    init(level: BotLevel) { self.level = level }

    mutating func add(_ outcome: BalanceMatch.Outcome) {
        games += 1
        if outcome.personWon { personWins += 1 }
        personTotal += outcome.person
        botTotal += outcome.bots.reduce(0, +)
        botSeats += outcome.bots.count
    }

    var personWinShare: Double { Double(personWins) / Double(max(games, 1)) }
    var meanPerson: Double { Double(personTotal) / Double(max(games, 1)) }
    var meanBot: Double { Double(botTotal) / Double(max(botSeats, 1)) }
    /// The mean bot's score over the person's.
    var botToPerson: Double { meanBot / max(meanPerson, 1) }

    var description: String {
        "\(level): person wins \(personWins)/\(games), mean person \(Int(meanPerson.rounded())), mean bot \(Int(meanBot.rounded())), bot/person \(String(format: "%.2f", botToPerson))"
    }
}
