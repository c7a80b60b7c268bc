import Bots
import DrawProtocol
import Rooms
import Testing

/// Issue 39, item 12: an easy bot loses to an attentive person, a hard bot is a fair fight.
/// Measured with `PersonModel.attentive` over seeded games of one person and two bots;
/// the figures are printed and quoted in docs/GAME.md ("Bot balance").
@Suite struct BotBalanceTests {
    static let seeds: Range<UInt64> = 1..<25

    @Test func anAttentivePersonBeatsEasyBotsAndHardBotsAreAFairFight() async {
        let easy = await BalanceFigures.measure(level: .easy, bots: 2, seeds: Self.seeds)
        let normal = await BalanceFigures.measure(level: .normal, bots: 2, seeds: Self.seeds)
        let hard = await BalanceFigures.measure(level: .hard, bots: 2, seeds: Self.seeds)
        print("bot balance, 1 attentive person and 2 bots, \(Self.seeds.count) games each:\n\(easy)\n\(normal)\n\(hard)")
        // Easy: the person wins most games and scores well above an easy bot.
        #expect(easy.personWinShare >= 0.75, "\(easy)")
        #expect(easy.botToPerson <= 0.7, "\(easy)")
        // Levels in order.
        #expect(easy.meanBot < normal.meanBot && normal.meanBot < hard.meanBot, "\(easy) | \(normal) | \(hard)")
        // Hard: a fair fight, neither side running away with it (against two equals the
        // person would win about a third of the games).
        #expect(hard.personWinShare >= 0.2, "\(hard)")
        #expect((0.85...1.15).contains(hard.botToPerson), "\(hard)")
    }
}
