import Canvas
import Testing
@testable import Rooms

@Suite("Chat, guesses and drawing authority")
struct RoomChatTests {
    func drawingRoom() -> RoomHarness {
        var settings = RoomSettings()
        settings.customWords = ["elephant"]
        settings.customOnly = true
        settings.wordChoices = 1
        var h = RoomHarness(settings: settings)
        h.join("ada", "bob", "cy")
        h.startGame(host: "ada")
        h.chooseFirst()
        return h
    }

    @Test func correctGuessIsNeverEchoed() {
        var h = drawingRoom()
        h.send(.chat("  ELEPHANT "), from: "bob")
        #expect(h.received("cy").contains(.guessed(PlayerID("bob"), points: h.turnsPoints("bob", h))))
        for name in ["ada", "bob", "cy"] {
            #expect(!h.received(name).contains { if case .chat = $0 { true } else { false } })
        }
    }

    @Test func closeGuessIsPrivate() {
        var h = drawingRoom()
        h.send(.chat("elephent"), from: "bob")
        #expect(h.received("bob").contains(.close(text: "elephent")))
        #expect(!h.received("cy").contains { if case .chat = $0 { true } else { false } })
        #expect(!h.received("cy").contains { if case .close = $0 { true } else { false } })
    }

    @Test func wrongGuessIsChat() {
        var h = drawingRoom()
        h.send(.chat("a mouse?"), from: "bob")
        #expect(h.received("cy").contains(.chat(from: PlayerID("bob"), name: "bob", text: "a mouse?")))
    }

    @Test func knowersTalkOnlyAmongThemselves() {
        var h = drawingRoom()
        h.send(.chat("elephant"), from: "bob")
        h.send(.chat("it is an elephant"), from: "bob")
        h.send(.chat("yes!"), from: "ada")
        #expect(h.received("bob").contains(.chat(from: PlayerID("ada"), name: "ada", text: "yes!")))
        #expect(!h.received("cy").contains { if case .chat = $0 { true } else { false } })
    }

    @Test func drawerCannotGuess() {
        var h = drawingRoom()
        h.send(.guess("elephant"), from: "ada")
        #expect(h.room.member(PlayerID("ada"))?.guessed == false)
        #expect(h.room.phase == .drawing)
    }

    @Test func chatLimits() {
        var h = drawingRoom()
        h.send(.chat(String(repeating: "x", count: 201)), from: "bob")
        h.send(.chat("   "), from: "bob")
        #expect(h.errors("bob") == [.tooLarge, .badMessage])
        h.send(.chat(String(repeating: "y", count: 200)), from: "bob")
        #expect(h.errors("bob").count == 2)
    }

    @Test func guessOutsideDrawingIsWrongPhase() {
        var h = RoomHarness()
        h.join("ada", "bob")
        h.send(.guess("cat"), from: "bob")
        #expect(h.errors("bob") == [.wrongPhase])
    }

    @Test func onlyTheDrawerDraws() {
        var h = drawingRoom()
        let stroke: [DrawOperation] = [.begin(tool: .pen, color: .black, width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 50, y: 50)]), .end]
        #expect(h.draw(stroke, from: "bob") == .rejected(ProtocolError(.notDrawer, "only the drawer can draw, and only while drawing", ref: "binary")))
        #expect(h.draw(stroke, from: "ada") == .relay(except: PlayerID("ada"), points: 2))
        #expect(h.frames[PlayerID("bob")]?.count == 1)
        #expect(h.frames[PlayerID("ada")] == nil)
        #expect(h.room.strokeLog.frames.count == 1)
    }

    @Test func invalidFramesAreRejectedWhole() {
        var h = drawingRoom()
        let before = h.room.drawing.compacted()
        let bad = h.room.draw(frame: [0x02, 0x01, 0x00, 0x00], from: PlayerID("ada"), now: h.now)
        guard case .rejected(let error) = bad else {
            Issue.record("POINTS without an open stroke must be rejected")
            return
        }
        #expect(error.code == .badOps)
        #expect(h.room.drawing.compacted() == before)
    }

    @Test func lateJoinerGetsTheCompactedCanvas() {
        var h = drawingRoom()
        h.draw([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 50, y: 50)]), .end], from: "ada")
        h.draw([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 70, y: 10)), .end, .undo], from: "ada")
        h.join("dee")
        #expect(h.received("dee").contains(.canvas(width: 800, height: 600)))
        let frames = h.frames[PlayerID("dee")] ?? []
        var replay = Drawing(size: .standard)
        for frame in frames { _ = try? replay.apply(frame: frame) }
        #expect(replay.compacted() == h.room.drawing.compacted())
        #expect(replay.visibleItemCount == 1)
    }
}

extension RoomHarness {
    func turnsPoints(_ name: String, _ h: RoomHarness) -> Int {
        h.received(name).compactMap { if case .guessed(let id, let points) = $0, id == RoomHarness.id(name) { points } else { nil } }.first ?? -1
    }
}

@Suite("Drawing size cap")
struct DrawingCapTests {
    @Test func bigDrawingsAreCappedButUndoAndClearStillWork() {
        var configuration = RoomConfiguration()
        configuration.maxTurnStrokeBytes = 200
        var settings = RoomSettings()
        settings.wordChoices = 1
        var h = RoomHarness(settings: settings, configuration: configuration)
        h.join("ada", "bob")
        h.startGame(host: "ada")
        h.chooseFirst()
        let long: [DrawOperation] = [.begin(tool: .pen, color: .black, width: 4, at: Point(x: 0, y: 0)),
                                     .points((1...80).map { Point(x: Int32($0), y: Int32($0)) }), .end]
        #expect(h.draw(long, from: "ada") == .relay(except: PlayerID("ada"), points: 81))
        guard case .rejected(let error) = h.draw(long, from: "ada") else {
            Issue.record("the second long stroke must pass the cap")
            return
        }
        #expect(error.code == .tooLarge)
        #expect(h.draw([.clear], from: "ada") == .relay(except: PlayerID("ada"), points: 0))
        #expect(h.room.drawing.isEmpty)
    }
}
