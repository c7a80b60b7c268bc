import Canvas
import DrawProtocol
import Testing
@testable import Rooms

/// Issue 39, item 2: a word drawn in a game is not offered again while unused words remain,
/// to people and bots; a bot with no fresh word it can draw passes its turn.
@Suite struct RoomWordFreshnessTests {
    static let winterWords = ["Schneemann", "Kaffeetasse", "Regenschirm"]

    private func offered(_ h: RoomHarness) -> (drawer: PlayerID, words: [String])? {
        guard case .choosing(let choosing) = h.room.state else { return nil }
        return (choosing.drawer, choosing.words)
    }

    private func customOnly(_ words: [String], rounds: Int = 3, choices: Int = 3) -> RoomSettings {
        var settings = RoomSettings()
        settings.language = "de"
        settings.customWords = words
        settings.customOnly = true
        settings.rounds = rounds
        settings.wordChoices = choices
        return settings
    }

    /// Draws the offered word at `index` and lets the turn run out.
    private func draw(_ h: inout RoomHarness, index: Int = 0) -> String? {
        guard let (drawer, words) = offered(h), words.indices.contains(index) else { return nil }
        h.send(.choose(index: index), fromID: drawer)
        h.advance(until: .turnEnd)
        h.advance(until: .choosing)
        return words[index]
    }

    @Test func peopleAreNeverOfferedAWordAlreadyDrawnUntilEveryWordIsUsed() {
        var h = RoomHarness(settings: customOnly(Self.winterWords, rounds: 3))
        h.join("Ada", "Bob")
        h.startGame(host: "ada")
        #expect(Set(offered(h)?.words ?? []) == Set(Self.winterWords))
        var drawn: [String] = []
        for _ in 0..<3 {
            guard let word = draw(&h) else { break }
            drawn.append(word)
            // Until all three are drawn, only the words not drawn yet come up.
            if drawn.count < 3 {
                #expect(Set(offered(h)?.words ?? []) == Set(Self.winterWords).subtracting(drawn))
            }
        }
        #expect(Set(drawn) == Set(Self.winterWords))
        // Every word used: they all come back for the next turn.
        #expect(Set(offered(h)?.words ?? []) == Set(Self.winterWords))
    }

    @Test func withALongListNoWordIsOfferedTwiceInAGame() {
        var settings = RoomSettings()
        settings.rounds = 4
        var h = RoomHarness(settings: settings)
        h.join("Ada", "Bob", "Cy")
        h.startGame(host: "ada")
        var drawn: [String] = []
        while let (_, words) = offered(h) {
            #expect(Set(words).isDisjoint(with: drawn), "offered again: \(words) after \(drawn)")
            guard let word = draw(&h, index: words.count - 1) else { break }
            drawn.append(word)
        }
        #expect(drawn.count == 12)
    }

    /// The issue's reproduction: custom words only, two bots; the host drew "Schneemann",
    /// the only one of the three the bots have a drawing for, so both bots pass.
    @Test func botsWithNoFreshWordTheyCanDrawPassAndTheRoomIsTold() {
        var h = RoomHarness(settings: customOnly(Self.winterWords, rounds: 2))
        h.room.botVocabulary = BotVocabulary(words: ["de": ["Schneemann", "Sonne", "Haus"], "en": ["snowman"]])
        h.join("Ada")
        h.send(.addBot(level: .normal), from: "ada")
        h.send(.addBot(level: .normal), from: "ada")
        h.send(.ready(true), from: "ada")
        #expect(offered(h)?.drawer == RoomHarness.id("ada"))
        let index = offered(h)?.words.firstIndex(of: "Schneemann") ?? 0
        #expect(draw(&h, index: index) == "Schneemann")
        // Both bots passed; round 2 begins with Ada again, offered only the unused words.
        let passes = h.received("ada").compactMap { message -> PlayerID? in
            if case .notice(.botPassed(let id, _)) = message { return id }
            return nil
        }
        #expect(passes == h.bots)
        #expect(offered(h)?.drawer == RoomHarness.id("ada"))
        #expect(Set(offered(h)?.words ?? []) == ["Kaffeetasse", "Regenschirm"])
        #expect(h.room.game?.round == 2)
        let notice = ServerMessage.notice(.botPassed(h.bots[0], name: "Pixel")).jsonString
        #expect(notice == #"{"t":"notice","code":"bot_passed","playerId":"\#(h.bots[0].rawValue)","name":"Pixel"}"#)
    }

    @Test func aBotIsOfferedTheCustomWordsItCanDrawThatAreStillFresh() {
        var h = RoomHarness(settings: customOnly(["schneemann", "Sonne", "Kaffeetasse"], rounds: 2))
        h.room.botVocabulary = BotVocabulary(words: ["de": ["Schneemann", "Sonne", "Haus"]])
        h.join("Ada")
        h.send(.addBot(level: .normal), from: "ada")
        h.send(.ready(true), from: "ada")
        let index = offered(h)?.words.firstIndex(of: "Sonne") ?? 0
        #expect(draw(&h, index: index) == "Sonne")
        // The bot's turn: only the custom word it can draw and nobody drew, spelt as its drawings are filed.
        #expect(offered(h)?.drawer == h.bots[0])
        #expect(offered(h)?.words == ["Schneemann"])
    }

    @Test func theWordsDrawnSurviveARestore() throws {
        var h = RoomHarness(settings: customOnly(Self.winterWords, rounds: 3))
        h.join("Ada", "Bob")
        h.startGame(host: "ada")
        let first = draw(&h)
        let restored = try Room(restoring: h.room.snapshot(now: h.now), frames: [], configuration: RoomConfiguration(), now: h.now)
        #expect(restored.game?.usedWords == [first].compactMap { $0 })
    }

    @Test func aBagSkipsUsedWordsAndEndsWhenAllAreUsed() {
        var rng = SeededRandom(seed: 7)
        var bag = WordBag(words: ["a1", "b2", "c3", "d4"], rng: &rng)
        #expect(Set(bag.draw(3, rng: &rng, skipping: { $0 == "a1" || $0 == "b2" })) == ["c3", "d4"])
        #expect(bag.draw(3, rng: &rng, skipping: { _ in true }).isEmpty)
    }
}
