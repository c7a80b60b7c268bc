import Canvas
import DrawProtocol
import Testing
@testable import Rooms

@Suite("Drawing ids of finished turns")
struct RoomDrawingIDTests {
    private func startedTurn() -> RoomHarness {
        var settings = RoomSettings()
        settings.rounds = 1
        var h = RoomHarness(settings: settings)
        h.room.drawingIDs = .seeded(9)
        h.join("ada", "bob")
        h.startGame(host: "ada")
        h.chooseFirst()
        return h
    }

    private func drawingOfTurnEnd(_ h: RoomHarness) -> DrawingID?? {
        for case .turnEnd(_, _, _, _, let drawing) in h.received("bob") { return .some(drawing) }
        return nil
    }

    @Test func aTurnWithInkGetsAnIdInItsTurnEndAndRecord() throws {
        var h = startedTurn()
        let drawer = try #require(h.drawerName)
        _ = h.draw([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 90, y: 60)]), .end], from: drawer)
        h.send(.skip, from: drawer)
        let id = try #require(h.turns.last?.drawing)
        #expect(drawingOfTurnEnd(h) == .some(id))
        #expect(id.rawValue.count == 22 && DrawingID(parsing: id.rawValue) == id)
        let json = try #require(h.received("bob").first { $0.type == "turnEnd" }).jsonString
        #expect(json.contains(#""drawing":{"id":"\#(id.rawValue)","png":"/d/\#(id.rawValue).png","timelapse":"/d/\#(id.rawValue).apng"}"#))
    }

    @Test func anEmptyCanvasGetsNoDrawing() throws {
        var h = startedTurn()
        let drawer = try #require(h.drawerName)
        // Drawn and undone: nothing left on the canvas.
        _ = h.draw([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 10, y: 10)), .end, .undo], from: drawer)
        h.send(.skip, from: drawer)
        #expect(h.turns.last != nil && h.turns.last?.drawing == nil)
        #expect(drawingOfTurnEnd(h) == .some(nil))
        let json = try #require(h.received("bob").first { $0.type == "turnEnd" }).jsonString
        #expect(!json.contains("drawing"))
    }

    @Test func idsAreDistinctAndOnlyTheServersFormParses() {
        var random = RandomSource.system
        let ids = (0..<1000).map { _ in DrawingID.random(using: &random) }
        #expect(Set(ids).count == 1000)
        #expect(DrawingID(parsing: "short") == nil)
        #expect(DrawingID(parsing: String(repeating: "A", count: 21) + ".") == nil)
        #expect(DrawingID(parsing: String(repeating: "A", count: 23)) == nil)
    }
}
