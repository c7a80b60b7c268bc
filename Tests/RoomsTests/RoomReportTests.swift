import Canvas
import DrawProtocol
import Testing
@testable import Rooms

@Suite("Reports: decoding and the evidence a room captures")
struct RoomReportTests {
    func decode(_ text: String) -> Result<ClientMessage, ProtocolError> {
        ClientMessage.decode(Array(text.utf8))
    }

    /// Ada draws "elephant" for Bob and Cy; a line said to everyone before the game.
    func drawingRoom() -> RoomHarness {
        var settings = RoomSettings()
        settings.customWords = ["elephant"]
        settings.customOnly = true
        settings.wordChoices = 1
        var h = RoomHarness(settings: settings)
        h.join("ada", "bob", "cy")
        h.send(.chat("hello all"), from: "cy")
        h.startGame(host: "ada")
        h.chooseFirst()
        return h
    }

    @Test func reportAndGalleryMessagesDecode() throws {
        let id = "AAAAAAAAAAAAAAAAAAAAAA"
        #expect(try decode(#"{"t":"report","kind":"drawing","drawing":"\#(id)","reason":"sexual"}"#).get()
            == .report(ReportRequest(target: .drawing(DrawingID(parsing: id)), reason: .sexual)))
        #expect(try decode(#"{"t":"report","kind":"drawing","reason":"reveals_word"}"#).get()
            == .report(ReportRequest(target: .drawing(nil), reason: .revealsWord)))
        #expect(try decode(#"{"t":"report","kind":"chat","from":"ada","text":"hi","reason":"spam"}"#).get()
            == .report(ReportRequest(target: .chat(from: PlayerID("ada"), text: "hi"), reason: .spam)))
        #expect(try decode(#"{"t":"gallery","listed":false}"#).get() == .gallery(listed: false))
        func code(_ text: String) -> ErrorCode? {
            if case .failure(let e) = decode(text) { return e.code }
            return nil
        }
        #expect(code(#"{"t":"report","kind":"drawing","reason":"ugly"}"#) == .badMessage)
        #expect(code(#"{"t":"report","kind":"picture","reason":"spam"}"#) == .badMessage)
        #expect(code(#"{"t":"report","kind":"drawing","drawing":"short","reason":"spam"}"#) == .badMessage)
        #expect(code(#"{"t":"report","kind":"chat","from":"ada","reason":"spam"}"#) == .badMessage)
        #expect(code(#"{"t":"report","kind":"chat","from":"ada","text":"\#(String(repeating: "x", count: 401))","reason":"spam"}"#) == .tooLarge)
        #expect(code(#"{"t":"gallery"}"#) == .badMessage)
        #expect(code(#"{"t":"gallery","listed":"no"}"#) == .badMessage)
    }

    @Test func aChatLineMustBeOneTheReporterWasShown() throws {
        var h = drawingRoom()
        // Bob guesses: his chat now goes only to Ada (the drawer) and those who guessed.
        h.send(.guess("elephant"), from: "bob")
        h.send(.chat("it has a trunk"), from: "bob")
        let cy = RoomHarness.id("cy"), ada = RoomHarness.id("ada"), bob = RoomHarness.id("bob")
        let seen = try h.room.evidence(for: ReportRequest(target: .chat(from: bob, text: "it has a trunk"), reason: .revealsWord), from: ada).get()
        #expect(seen.reported == bob && seen.reportedName == "bob")
        #expect(seen.chat.map(\.text) == ["hello all", "it has a trunk"])
        #expect(seen.strokes == nil)
        // Cy was not shown it: he cannot report it, nor a line never said.
        let hidden = h.room.evidence(for: ReportRequest(target: .chat(from: bob, text: "it has a trunk"), reason: .spam), from: cy)
        #expect(throws: ProtocolError.self) { try hidden.get() }
        if case .failure(let error) = hidden { #expect(error.code == .unknownTarget) }
        let made = h.room.evidence(for: ReportRequest(target: .chat(from: cy, text: "hello al"), reason: .spam), from: ada)
        if case .failure(let error) = made { #expect(error.code == .unknownTarget) } else { Issue.record("a line never said was accepted") }
        let outsider = h.room.evidence(for: ReportRequest(target: .drawing(nil), reason: .spam), from: PlayerID("eve"))
        if case .failure(let error) = outsider { #expect(error.code == .notInRoom) } else { Issue.record("an outsider's report was accepted") }
    }

    @Test func theCanvasNowIsCapturedWithItsDrawer() throws {
        var h = drawingRoom()
        let request = ReportRequest(target: .drawing(nil), reason: .offensive)
        let empty = h.room.evidence(for: request, from: RoomHarness.id("bob"))
        if case .failure(let error) = empty { #expect(error.code == .unknownTarget) } else { Issue.record("an empty canvas was reportable") }
        h.draw([.begin(tool: .pen, color: RGB(r: 0, g: 0, b: 0), width: 8, at: Point(x: 10, y: 10)), .points([Point(x: 200, y: 200)]), .end], from: "ada")
        let evidence = try h.room.evidence(for: request, from: RoomHarness.id("bob")).get()
        #expect(evidence.reported == RoomHarness.id("ada"))
        #expect(evidence.strokes == h.room.strokeLog)
        #expect(evidence.strokes?.frames.count == 1)
    }

    @Test func finishedTurnsCarryTheGalleryFacts() throws {
        var h = drawingRoom()
        h.draw([.begin(tool: .pen, color: RGB(r: 0, g: 0, b: 0), width: 8, at: Point(x: 10, y: 10)), .end], from: "ada")
        h.send(.skip, from: "ada")
        let record = try #require(h.turns.last)
        #expect(record.isPublic && record.language == "en" && record.drawerName == "ada")
        #expect(record.players == ["ada", "bob", "cy"].map(RoomHarness.id))
        #expect(record.drawerOptedOut == false, "the shell sets it")
        #expect(record.drawing != nil)
    }

    @Test func aCanvasReportedDuringItsTurnNamesThatTurnUntilTheNextOne() throws {
        var h = drawingRoom()
        let request = ReportRequest(target: .drawing(nil), reason: .offensive)
        h.draw([.begin(tool: .pen, color: RGB(r: 0, g: 0, b: 0), width: 8, at: Point(x: 10, y: 10)), .end], from: "ada")
        let during = try h.room.evidence(for: request, from: RoomHarness.id("bob")).get()
        let turn = try #require(during.turn, "a canvas reported while drawn names its turn")
        h.send(.skip, from: "ada")
        let record = try #require(h.turns.last)
        #expect(turn == TurnKey(record), "the key of the turn that finished")
        let atTurnEnd = try h.room.evidence(for: request, from: RoomHarness.id("cy")).get()
        #expect(atTurnEnd.turn == turn, "during turnEnd the canvas is still that turn's")
        #expect(TurnKey(parsing: turn.rawValue) == turn)
        #expect(TurnKey(parsing: "ABCDEF/1") == nil && TurnKey(parsing: "ABCDEF/x/1") == nil)
    }
}
