import Bots
import Canvas
import DrawProtocol
import Rooms
import Testing

/// Issue 39, item 2, with real brains and the shipped drawings: bots draw only words they
/// have a drawing for and never one already drawn in the game while unused words remain.
@Suite struct BotWordFreshnessTests {
    @Test func inACustomOnlyGameBotsDrawEachDrawableWordOnceThenPass() async {
        let transcript = await offPool { Self.playCustomOnlyGame() }
        let drawn = transcript.filter { $0.contains("turnFinished") }.map { $0.split(separator: " ")[2] }
        #expect(drawn.sorted() == ["Haus", "Schneemann", "Sonne"], "\(drawn)")
        // Six bot turns, three drawn: the other three were passed, and the room was told.
        let passes = transcript.filter { $0.contains(#""code":"bot_passed""#) }
        #expect(passes.count == 3)
        #expect(!transcript.contains { $0.contains(#"{"t":"skip"}"#) })
        #expect(transcript.last == "phase gameEnd")
    }

    /// Two bots, custom words only in German, three rounds; the game's transcript.
    static func playCustomOnlyGame() -> [String] {
        var settings = RoomSettings()
        settings.language = "de"
        // The samples draw "Schneemann", "Sonne" and "Haus"; nothing draws "Kaffeetasse".
        settings.customWords = ["Schneemann", "Kaffeetasse", "Sonne", "Haus"]
        settings.customOnly = true
        settings.rounds = 3
        var configuration = RoomConfiguration()
        configuration.drawMs = 30_000
        var table = BotTable(seed: 3, settings: settings, configuration: configuration)
        table.seat([.normal, .hard])
        table.run(limitMs: 30 * 60_000) { $0.room.phase == .gameEnd }
        return table.transcript + ["phase \(table.room.phase)"]
    }
}
