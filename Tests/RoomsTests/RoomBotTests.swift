import Canvas
import DrawProtocol
import Testing
@testable import Rooms

@Suite struct RoomBotTests {
    private func entries(_ message: ServerMessage?) -> [PlayerView] {
        if case .room(let view)? = message { return view.players }
        return []
    }

    @Test func theHostAddsABotThatIsReadyAndMarkedAsABotEverywhere() {
        var h = RoomHarness()
        h.join("Ada", "Bob")
        h.send(.addBot(level: .hard), from: "ada")
        #expect(h.bots.count == 1)
        let bot = h.bots[0]
        let member = h.room.member(bot)
        #expect(member?.bot == .hard)
        #expect(member?.ready == true)
        let joined = h.received("bob").compactMap { if case .joined(let p) = $0 { p } else { nil } }.last
        #expect(joined?.bot == true)
        #expect(ServerMessage.joined(joined!).jsonString.contains("\"bot\":true"))
        let lastRoom = h.received("bob").last(where: \.isRoom)
        #expect(entries(lastRoom).filter(\.bot).map(\.id) == [bot])
        // People's entries carry no bot field at all.
        #expect(!ServerMessage.joined(entries(lastRoom)[0]).jsonString.contains("bot"))
        #expect(h.room.summary.bots == 1 && h.room.summary.players == 3)
    }

    @Test func onlyTheHostAddsOrRemovesBots() {
        var h = RoomHarness()
        h.join("Ada", "Bob")
        h.send(.addBot(level: .easy), from: "bob")
        #expect(h.errors("bob") == [.notHost])
        h.send(.addBot(level: .easy), from: "ada")
        h.send(.removeBot(playerID: h.bots[0]), from: "bob")
        #expect(h.errors("bob") == [.notHost, .notHost])
        #expect(h.room.botCount == 1)
        h.send(.removeBot(playerID: h.bots[0]), from: "ada")
        #expect(h.room.botCount == 0)
        #expect(h.released.contains(h.bots[0]))
    }

    @Test func removeBotRefusesAPersonAndAStranger() {
        var h = RoomHarness()
        h.join("Ada", "Bob")
        h.send(.removeBot(playerID: RoomHarness.id("bob")), from: "ada")
        h.send(.removeBot(playerID: PlayerID("nobody")), from: "ada")
        #expect(h.errors("ada") == [.notABot, .notInRoom])
        #expect(h.room.isMember(RoomHarness.id("bob")))
    }

    @Test func atMostMaxPlayersMinusOneBotsSoASeatStaysForAPerson() {
        var settings = RoomSettings()
        settings.maxPlayers = 4
        var h = RoomHarness(settings: settings)
        h.join("Ada")
        for _ in 0..<4 { h.send(.addBot(level: .normal), from: "ada") }
        #expect(h.room.botCount == 3)
        #expect(h.errors("ada") == [.tooManyBots])
        // The fourth seat is the person's: a second person can no longer join (room full).
        #expect(h.join("Bob").map(\.code) == [.roomFull])
    }

    @Test func botsAreAddedOnlyInTheLobby() {
        var h = RoomHarness()
        h.join("Ada", "Bob")
        h.startGame(host: "ada")
        h.send(.addBot(level: .normal), from: "ada")
        #expect(h.errors("ada") == [.wrongPhase])
    }

    @Test func aBotCountsTowardTheMinimumAndTheGameStartsWhenThePersonIsReady() {
        var h = RoomHarness()
        h.join("Ada")
        h.send(.addBot(level: .normal), from: "ada")
        #expect(h.room.phase == .lobby)
        h.send(.ready(true), from: "ada")
        #expect(h.room.phase == .choosing)
    }

    @Test func theHostHandOverSkipsBotsAndARoomOfOnlyBotsCloses() {
        var h = RoomHarness()
        h.join("Ada")
        h.send(.addBot(level: .normal), from: "ada")
        h.join("Bob")
        h.send(.addBot(level: .normal), from: "ada")
        h.leave("ada")
        #expect(h.room.host == RoomHarness.id("bob"))
        h.leave("bob")
        #expect(h.room.isClosed)
        #expect(h.room.members.isEmpty)
        #expect(Set(h.released).isSuperset(of: h.bots))
    }

    @Test func botsStayReadyAfterAGameAndShowInTheRanking() {
        var settings = RoomSettings()
        settings.rounds = 1
        var h = RoomHarness(settings: settings)
        h.join("Ada")
        h.send(.addBot(level: .normal), from: "ada")
        h.send(.ready(true), from: "ada")
        h.advance(until: .gameEnd)
        let rankings: [[RankEntry]] = h.received("ada").compactMap { if case .gameEnd(let r) = $0 { r } else { nil } }
        let ranking = rankings.last ?? []
        #expect(ranking.filter { $0.bot == true }.map { $0.id } == h.bots)
        #expect(ServerMessage.gameEnd(ranking: ranking).jsonString.contains("\"bot\":true"))
        h.advance(until: .lobby)
        #expect(h.room.member(h.bots[0])?.ready == true)
        #expect(h.room.member(RoomHarness.id("ada"))?.ready == false)
    }

    @Test func aBotDrawerIsOfferedOnlyWordsItCanDraw() {
        var h = RoomHarness()
        h.room.botVocabulary = BotVocabulary(words: ["en": ["sun", "cat", "house", "tree"]])
        h.join("Ada")
        h.send(.addBot(level: .normal), from: "ada")
        h.send(.ready(true), from: "ada")
        // Seat order: Ada draws first, then the bot.
        h.chooseFirst()
        h.advance(until: .choosing)
        guard case .choosing(let choosing) = h.room.state else {
            Issue.record("no choosing phase")
            return
        }
        #expect(choosing.drawer == h.bots[0])
        #expect(!choosing.words.isEmpty)
        #expect(Set(choosing.words).isSubset(of: ["sun", "cat", "house", "tree"]))
    }

    @Test func botsDoNotVoteSoTheyDoNotRaiseTheVotesNeeded() {
        var h = RoomHarness()
        h.join("Ada", "Bob", "Cy")
        h.send(.addBot(level: .normal), from: "ada")
        h.send(.addBot(level: .normal), from: "ada")
        h.send(.votekick(playerID: RoomHarness.id("cy")), from: "ada")
        h.send(.votekick(playerID: RoomHarness.id("cy")), from: "bob")
        #expect(!h.room.isMember(RoomHarness.id("cy")))
    }

    @Test func aRestoredRoomKeepsItsBotsSeatedAndConnected() throws {
        var h = RoomHarness()
        h.join("Ada")
        h.send(.addBot(level: .easy), from: "ada")
        let snapshot = h.room.snapshot(now: h.now)
        let restored = try Room(restoring: snapshot, frames: [], configuration: RoomConfiguration(), now: h.now)
        let bot = restored.member(h.bots[0])
        #expect(bot?.bot == .easy && bot?.connected == true && bot?.ready == true)
        #expect(restored.member(RoomHarness.id("ada"))?.connected == false)
        #expect(restored.botSeats.map(\.id) == h.bots)
    }

    @Test func addBotDecodesWithALevelAndRefusesAnUnknownOne() throws {
        #expect(try ClientMessage.decode(Array(#"{"t":"addBot","level":"hard"}"#.utf8)).get() == .addBot(level: .hard))
        #expect(try ClientMessage.decode(Array(#"{"t":"addBot"}"#.utf8)).get() == .addBot(level: .normal))
        #expect(try ClientMessage.decode(Array(#"{"t":"removeBot","playerId":"bot-X-1"}"#.utf8)).get() == .removeBot(playerID: PlayerID("bot-X-1")))
        guard case .failure(let error) = ClientMessage.decode(Array(#"{"t":"addBot","level":"godlike"}"#.utf8)) else {
            Issue.record("accepted an unknown level")
            return
        }
        #expect(error.code == .badMessage && error.ref == "addBot")
    }
}
