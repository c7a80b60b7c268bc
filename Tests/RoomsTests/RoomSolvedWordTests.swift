import Canvas
import DrawProtocol
import Testing
@testable import Rooms

/// Issue 39, item 3: a player who guessed the word is told it, and keeps it after a reload
/// and a restart (`guessed.word`, `room.solvedWord`).
@Suite struct RoomSolvedWordTests {
    private func lastRoom(_ h: RoomHarness, _ name: String) -> RoomView? {
        for case .room(let view) in h.received(name).reversed() { return view }
        return nil
    }

    @Test func theGuesserAloneGetsTheWordWithItsGuessedMessage() {
        var h = RoomHarness.drawing("elephant")
        h.send(.chat("Elephant"), from: "bob")
        let bobs = h.received("bob").compactMap { if case .guessed(_, _, let word) = $0 { word } else { nil } }
        #expect(bobs == ["elephant"])
        for name in ["ada", "cy"] {
            #expect(h.received(name).contains { if case .guessed(_, _, nil) = $0 { true } else { false } })
            #expect(!h.received(name).contains { if case .guessed(_, _, .some) = $0 { true } else { false } })
        }
        #expect(ServerMessage.guessed(PlayerID("bob"), points: 90, word: "elephant").jsonString
            == #"{"t":"guessed","playerId":"bob","points":90,"word":"elephant"}"#)
    }

    @Test func theGuessersRoomCopyCarriesTheWordUntilTheTurnEnds() {
        var h = RoomHarness.drawing("elephant")
        h.send(.chat("elephant"), from: "bob")
        // Any change after the guess sends `room` again: a player joining, say.
        h.join("Dee")
        #expect(lastRoom(h, "bob")?.solvedWord == "elephant")
        #expect(lastRoom(h, "cy")?.solvedWord == nil)
        #expect(lastRoom(h, "ada")?.solvedWord == nil && lastRoom(h, "ada")?.word == "elephant")
        #expect(ServerMessage.room(lastRoom(h, "bob")!).jsonString.contains(#""solvedWord":"elephant""#))
        #expect(!ServerMessage.room(lastRoom(h, "cy")!).jsonString.contains("elephant"))
        // A reload (resume) during the turn and during its turnEnd keeps it.
        h.disconnect("bob")
        h.reconnect("bob")
        #expect(lastRoom(h, "bob")?.solvedWord == "elephant")
        h.send(.chat("elephant"), from: "cy")
        h.send(.chat("elephant"), from: "dee")
        #expect(h.room.phase == .turnEnd)
        h.disconnect("cy")
        h.reconnect("cy")
        #expect(lastRoom(h, "cy")?.phase == .turnEnd && lastRoom(h, "cy")?.solvedWord == "elephant")
        h.advance(until: .choosing)
        #expect(lastRoom(h, "bob")?.solvedWord == nil)
    }

    @Test func aRestartKeepsItInDrawingAndTurnEnd() throws {
        var h = RoomHarness.drawing("elephant")
        h.send(.chat("elephant"), from: "bob")
        var restored = try Room(restoring: h.room.snapshot(now: h.now), frames: [], configuration: RoomConfiguration(), now: h.now)
        #expect(restored.view(for: RoomHarness.id("bob"), now: h.now).solvedWord == "elephant")
        #expect(restored.view(for: RoomHarness.id("cy"), now: h.now).solvedWord == nil)
        h.send(.chat("elephant"), from: "cy")
        #expect(h.room.phase == .turnEnd)
        restored = try Room(restoring: h.room.snapshot(now: h.now), frames: [], configuration: RoomConfiguration(), now: h.now)
        #expect(restored.view(for: RoomHarness.id("cy"), now: h.now).solvedWord == "elephant")
        #expect(restored.view(for: RoomHarness.id("ada"), now: h.now).solvedWord == nil)
    }
}
