import Canvas
import DrawProtocol
import Testing
@testable import Rooms

@Suite("Chat, guesses and drawing authority")
struct RoomChatTests {
    func drawingRoom() -> RoomHarness { RoomHarness.drawing("elephant") }

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
        h.received(name).compactMap { if case .guessed(let id, let points, _) = $0, id == RoomHarness.id(name) { points } else { nil } }.first ?? -1
    }
}

@Suite("Drawing caps")
struct DrawingCapTests {
    static let long: [DrawOperation] = [.begin(tool: .pen, color: .black, width: 4, at: Point(x: 0, y: 0)),
                                        .points((1...80).map { Point(x: Int32($0), y: Int32($0)) }), .end]

    static func harness(_ configure: (inout RoomConfiguration) -> Void) -> RoomHarness {
        var configuration = RoomConfiguration()
        configure(&configuration)
        var settings = RoomSettings()
        settings.wordChoices = 1
        var h = RoomHarness(settings: settings, configuration: configuration)
        h.join("ada", "bob")
        h.startGame(host: "ada")
        h.chooseFirst()
        return h
    }

    @Test func pointsOnTheCanvasAreCappedAndUndoOrClearMakeRoom() {
        var h = Self.harness { $0.maxDrawingPoints = 200 }
        #expect(h.draw(Self.long, from: "ada") == .relay(except: PlayerID("ada"), points: 81))
        #expect(h.draw(Self.long, from: "ada") == .relay(except: PlayerID("ada"), points: 81))
        guard case .rejected(let error) = h.draw(Self.long, from: "ada") else {
            Issue.record("a third long stroke passes the 200-point cap")
            return
        }
        #expect(error.code == .tooLarge && error.ref == "binary")
        #expect(h.room.drawing.pointCount == 162, "a refused frame changes nothing")
        // UNDO frees its stroke's points; so does CLEAR, in the same frame as new strokes too.
        #expect(h.draw([.undo], from: "ada") == .relay(except: PlayerID("ada"), points: 0))
        #expect(h.draw(Self.long, from: "ada") == .relay(except: PlayerID("ada"), points: 81))
        #expect(h.draw([.clear] + Self.long + Self.long, from: "ada") == .relay(except: PlayerID("ada"), points: 162))
        #expect(h.room.drawing.pointCount == 162)
    }

    @Test func inkAndItemsAreCappedToo() {
        var h = Self.harness {
            $0.maxDrawingInkAreas = 3
            $0.maxDrawingItems = 5
        }
        // A fill counts as a whole canvas of ink: three fit, a fourth does not.
        let fill = DrawOperation.fill(color: .white, at: Point(x: 5, y: 5))
        #expect(h.draw([fill, fill, fill], from: "ada") == .relay(except: PlayerID("ada"), points: 0))
        guard case .rejected(let fills) = h.draw([fill], from: "ada") else {
            Issue.record("a fourth fill passes the 3-canvas ink cap")
            return
        }
        #expect(fills.code == .tooLarge)
        _ = h.draw([.undo], from: "ada")
        let dot: [DrawOperation] = [.begin(tool: .pen, color: .black, width: 9, at: Point(x: 50, y: 50)), .end]
        #expect(h.draw(dot + dot, from: "ada") == .relay(except: PlayerID("ada"), points: 2))
        guard case .rejected(let items) = h.draw(dot + dot, from: "ada") else {
            Issue.record("a sixth item passes the cap")
            return
        }
        #expect(items.code == .tooLarge)
        #expect(h.draw([.clear, fill] + dot, from: "ada") == .relay(except: PlayerID("ada"), points: 1))
    }

    @Test func aCoordinateBombRunsOutOfInkLongBeforeItSlowsARender() {
        var h = Self.harness { _ in }
        // Width-64 segments bouncing between the far corners of the legal range [-w, 2w).
        let corners = (0..<1024).map { $0 % 2 == 0 ? Point(x: 1599, y: 1199) : Point(x: -799, y: -599 + Int32($0 % 50)) }
        let bomb: [DrawOperation] = [.begin(tool: .pen, color: .black, width: 64, at: Point(x: -799, y: -599)), .points(corners)]
        guard case .rejected(let error) = h.draw(bomb, from: "ada") else {
            Issue.record("1,024 canvas-crossing width-64 segments fit in 200 canvases of ink")
            return
        }
        #expect(error.code == .tooLarge)
        #expect(h.room.drawing.isEmpty)
        // A human-sized stroke still goes through.
        #expect(h.draw(Self.long, from: "ada") == .relay(except: PlayerID("ada"), points: 81))
    }

    @Test func aLongTurnsRecordIsCompactedAndStillDrawsTheCanvas() throws {
        var h = Self.harness { $0.maxTurnLogBytes = 2_000 }
        let generation = h.room.canvasGeneration
        // Draw and clear over and over: the canvas stays small, the record would not.
        for round in 0..<40 {
            #expect(h.draw(Self.long, from: "ada") == .relay(except: PlayerID("ada"), points: 81))
            if round % 3 == 2 { _ = h.draw([.clear], from: "ada") }
        }
        let bytes = h.room.strokeLog.frames.reduce(0) { $0 + $1.bytes.count }
        #expect(bytes <= 2_000 + 400, "the record stays near its bound; it holds \(bytes) bytes")
        #expect(h.room.canvasGeneration > generation, "a compaction moves the stored frames to a new generation")
        // The record still reproduces the canvas, open stroke and all.
        _ = h.draw([.begin(tool: .pen, color: .black, width: 3, at: Point(x: 9, y: 9)), .points([Point(x: 90, y: 9)])], from: "ada")
        let replayed = try h.room.strokeLog.drawing()
        #expect(Renderer.render(replayed) == Renderer.render(h.room.drawing))
        #expect(replayed.cursor == h.room.drawing.cursor)
    }
}
