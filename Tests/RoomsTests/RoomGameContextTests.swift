import Canvas
import DrawProtocol
import Foundation
import Testing
@testable import Rooms

/// Issue 39, item 5: a reload brings back the game's context: "X guessed the word", the
/// private "close" notices, "The word was ..." (`chatHistory` kinds) and the game's drawings
/// (`gameDrawings`), also after a restart.
@Suite struct RoomGameContextTests {
    private func history(_ h: RoomHarness, _ name: String) -> [ChatLine] {
        h.received(name).reversed().lazy.compactMap { if case .chatHistory(let lines) = $0 { lines } else { nil } }.first ?? []
    }

    private func drawings(_ h: RoomHarness, _ name: String) -> [GameDrawing]? {
        h.received(name).reversed().lazy.compactMap { if case .gameDrawings(let d) = $0 { d } else { nil } }.first
    }

    private func scribble(_ h: inout RoomHarness) {
        guard let drawer = h.room.drawer else { return }
        h.draw([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 90, y: 90)]), .end], from: drawer.rawValue)
    }

    @Test func theHistoryKeepsGuessesClosesAndRevealsEachForItsAudience() {
        var h = RoomHarness.drawing("elephant")
        h.send(.chat("elephent"), from: "cy")
        h.send(.chat("a mouse"), from: "cy")
        h.send(.chat("elephant"), from: "bob")
        h.send(.skip, from: "ada")
        for name in ["bob", "cy"] {
            h.disconnect(name)
            h.reconnect(name)
        }
        let cy = history(h, "cy")
        #expect(cy.map(\.kind) == [.close, nil, .guessed, .reveal])
        #expect(cy[0].text == "elephent")
        #expect(cy[2].from == PlayerID("bob") && cy[2].name == "bob")
        #expect(cy[3].word == "elephant" && cy[3].reason == .skipped)
        // Cy's close notice is Cy's alone.
        #expect(history(h, "bob").map(\.kind) == [nil, .guessed, .reveal])
        #expect(h.historyMismatches.isEmpty, "\(h.historyMismatches)")
        // On the wire, each kind with its own fields; a chat line as before.
        let json = ServerMessage.chatHistory(cy).jsonString
        #expect(json == #"{"t":"chatHistory","lines":[{"kind":"close","text":"elephent"},{"from":"cy","name":"cy","text":"a mouse"},"#
            + #"{"kind":"guessed","playerId":"bob","name":"bob"},{"kind":"reveal","word":"elephant","reason":"skipped"}]}"#)
    }

    @Test func aBotsPassIsInTheHistory() {
        var settings = RoomSettings()
        settings.customWords = ["snowman"]
        settings.customOnly = true
        var h = RoomHarness(settings: settings)
        h.room.botVocabulary = BotVocabulary(words: ["en": ["sun"]])
        h.join("Ada")
        h.send(.addBot(level: .easy), from: "ada")
        h.send(.ready(true), from: "ada")
        h.chooseFirst()
        h.send(.skip, from: "ada")
        h.advance(until: .choosing)
        h.disconnect("ada")
        h.reconnect("ada")
        let passed = history(h, "ada").last { $0.kind == .passed }
        #expect(passed?.from == h.bots[0] && passed?.name == "Pixel")
        #expect(h.historyMismatches.isEmpty, "\(h.historyMismatches)")
    }

    @Test func theFiftyLineCapCountsEveryKind() {
        var h = RoomHarness.drawing("elephant")
        for i in 0..<30 { h.send(.chat("elephent"), from: "cy"); h.send(.chat("line \(i)"), from: "cy") }
        h.disconnect("cy")
        h.reconnect("cy")
        let lines = history(h, "cy")
        #expect(lines.count == Room.chatHistoryLimit)
        #expect(lines.filter { $0.kind == .close }.count == 25)
        #expect(h.historyMismatches.isEmpty, "\(h.historyMismatches)")
    }

    @Test func aResumeDuringTheGameGetsItsDrawingsRightAfterTheHistory() throws {
        var h = RoomHarness.drawing("elephant", settings: { var s = RoomSettings(); s.rounds = 1; return s }())
        h.room.drawingIDs = .seeded(9)
        scribble(&h)
        h.send(.skip, from: "ada")
        let firstID = h.received("cy").compactMap { if case .turnEnd(_, _, _, _, let d) = $0 { d } else { nil } }.first
        h.advance(until: .choosing)
        h.chooseFirst()
        // Bob's turn ends with nothing drawn: no drawing to list.
        h.send(.skip, from: "bob")
        h.disconnect("cy")
        _ = h.take("cy")
        h.reconnect("cy")
        let types = h.received("cy").map(\.type)
        #expect(Array(types.prefix(3)) == ["room", "chatHistory", "gameDrawings"])
        let listed = try #require(drawings(h, "cy"))
        #expect(listed.map(\.id) == [firstID].compactMap { $0 })
        #expect(listed.first?.word == "elephant" && listed.first?.drawer == PlayerID("ada") && listed.first?.name == "ada" && listed.first?.round == 1)
        let json = ServerMessage.gameDrawings(listed).jsonString
        let id = listed[0].id.rawValue
        #expect(json == #"{"t":"gameDrawings","drawings":[{"id":"\#(id)","png":"/d/\#(id).png","timelapse":"/d/\#(id).apng","word":"elephant","drawer":"ada","name":"ada","round":1}]}"#)

        // A restart keeps them, through the game's end; back in the lobby none are sent.
        let data = try JSONEncoder().encode(h.room.snapshot(now: h.now))
        var restored = try Room(restoring: JSONDecoder().decode(RoomSnapshot.self, from: data), frames: [], configuration: h.room.configuration, now: h.now)
        let sent = restored.connect(PlayerID("cy"), now: h.now).compactMap { effect -> [GameDrawing]? in
            if case .send(.gameDrawings(let d), _) = effect { return d }
            return nil
        }
        #expect(sent == [listed])
        h.advance(until: .gameEnd)
        h.disconnect("cy")
        h.reconnect("cy")
        #expect(drawings(h, "cy")?.map(\.id) == listed.map(\.id))
        h.advance(until: .lobby)
        h.disconnect("cy")
        _ = h.take("cy")
        h.reconnect("cy")
        #expect(drawings(h, "cy") == nil)
    }
}
