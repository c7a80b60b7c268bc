import Canvas
import DrawProtocol
import Foundation
import GRDB
@testable import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// The gallery, reports and removal through a running server with a database.
@Suite("Gallery, reports and removal", .timeLimit(.minutes(1)))
struct GalleryServerTests {
    static let token = "let-me-in"
    static let frame = strokeBytes(from: Point(x: 30, y: 40), to: Point(x: 600, y: 500), width: 25)

    /// A server with a fresh database and the moderator token.
    static func withGalleryServer(_ body: @Sendable (Int) async throws -> Void) async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withServer({ $0.databasePath = path; $0.moderatorToken = token }, body)
    }

    /// Ada (host, first drawer) and Bob in a room of their own; Ada draws `frame` and Bob
    /// guesses. Returns both, Bob's `turnEnd` and the drawing id.
    static func drawnTurn(port: Int, isPublic: Bool, adaListed: Bool = true) async throws
        -> (ada: TestClient, bob: TestClient, adaID: String, end: [String: JSONValue], id: String) {
        let ada = TestClient.connect(port: port)
        let bob = TestClient.connect(port: port)
        let adaID = try #require(try await ada.hello("Ada")["playerId"]?.stringValue)
        try await bob.hello("Bob")
        if !adaListed {
            ada.send(#"{"t":"gallery","listed":false}"#)
            #expect(try await ada.next("gallery")["listed"]?.boolValue == false)
        }
        ada.send(#"{"t":"create","public":\#(isPublic),"settings":{"rounds":1}}"#)
        let code = try #require(try await ada.next("room")["code"]?.stringValue)
        bob.send(#"{"t":"join","code":"\#(code)"}"#)
        try await bob.next("room")
        let turn = try await startGame(ada)
        let word = try #require(turn["word"]?.stringValue)
        ada.send(binary: frame)
        _ = try await bob.nextBinary()
        bob.send(#"{"t":"chat","text":"\#(word)"}"#)
        let end = try await bob.next("turnEnd")
        let id = try #require(end["drawing"]?.objectValue?["id"]?.stringValue)
        return (ada, bob, adaID, end, id)
    }

    static func listed(_ port: Int, _ path: String, token: String? = nil) async throws -> [String] {
        let reply = try await HTTP.get(port: port, path: path, token: token)
        guard reply.status == 200, case .object(let body)? = JSONValue.parse(reply.body) else { return [] }
        return body["drawings"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } ?? []
    }

    @Test func publicDrawingsAreListedPrivateOnesOnlyToTheirPlayers() async throws {
        try await Self.withGalleryServer { port async throws in
            let open = try await Self.drawnTurn(port: port, isPublic: true)
            let closed = try await Self.drawnTurn(port: port, isPublic: false)
            let optedOut = try await Self.drawnTurn(port: port, isPublic: true, adaListed: false)
            try await waitUntil { try await Self.listed(port, "/api/gallery/mine", token: closed.bob.token).contains(closed.id) }
            let gallery = try await Self.listed(port, "/api/gallery")
            #expect(gallery.contains(open.id))
            #expect(!gallery.contains(closed.id), "a private room's drawing is not on the public gallery")
            try await waitUntil { try await Self.listed(port, "/api/gallery/mine", token: optedOut.ada.token).contains(optedOut.id) }
            #expect(!(try await Self.listed(port, "/api/gallery")).contains(optedOut.id), "the drawer opted out")
            #expect(try await Self.listed(port, "/api/gallery/mine", token: open.bob.token) == [open.id])
            // Eve played none of them: nothing of the private game is listed to her.
            let eve = TestClient.connect(port: port)
            try await eve.hello("Eve")
            #expect(try await Self.listed(port, "/api/gallery/mine", token: eve.token).isEmpty)
            #expect(try await HTTP.get(port: port, path: "/api/gallery/mine").status == 401)
            // The link itself is a capability: whoever has it sees the drawing.
            #expect(try await HTTP.get(port: port, path: "/d/\(closed.id).png").status == 200)
            #expect(try await HTTP.get(port: port, path: "/api/gallery?sort=worst").status == 400)
            #expect(try await HTTP.get(port: port, path: "/api/gallery?per=0").status == 400)
            #expect(try await HTTP.get(port: port, path: "/api/gallery?lang=xx").status == 400)
            let page = try await HTTP.get(port: port, path: "/api/gallery?per=1&page=1&lang=en&sort=best")
            let body = try #require(JSONValue.parse(page.body)?.objectValue)
            #expect(body["hasMore"]?.boolValue == false && body["drawings"]?.arrayValue?.count == 1, "the one public, listed drawing")
        }
    }

    @Test func aRemovedDrawingAnswers404AndItsRowsAndImagesAreDeleted() async throws {
        try await Self.withGalleryServer { port async throws in
            let turn = try await Self.drawnTurn(port: port, isPublic: true)
            #expect(try await HTTP.get(port: port, path: "/d/\(turn.id).png").status == 200)
            try await waitUntil { try await Self.listed(port, "/api/gallery").contains(turn.id) }
            #expect(try await HTTP.request("DELETE", port: port, path: "/api/drawings/\(turn.id)").status == 401)
            #expect(try await HTTP.request("DELETE", port: port, path: "/api/drawings/\(turn.id)", token: Self.token).status == 204)
            for path in ["/d/\(turn.id).png", "/d/\(turn.id).apng", "/d/\(turn.id).png?scale=2"] {
                #expect(try await HTTP.get(port: port, path: path).status == 404, "\(path)")
            }
            #expect(!(try await Self.listed(port, "/api/gallery")).contains(turn.id))
            #expect(!(try await Self.listed(port, "/api/gallery/mine", token: turn.bob.token)).contains(turn.id))
        }
    }

    @Test func aRemovedDrawingWhoseTurnWasNotYetStoredIsNeverStored() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try GameDatabase(path: path)
        var random = RandomSource.seeded(4)
        let id = DrawingID.random(using: &random)
        #expect(try await database.removeDrawing(id) == false)
        var record = TurnRecord(
            roomCode: RoomCode(parsing: "ABCDEF")!, game: 1, turn: 1, round: 1, drawer: PlayerID("ada"), word: "cat",
            reason: .allGuessed, scores: [PlayerID("ada"): 0], strokes: StrokeLog(size: .standard, frames: [.init(at: 0, bytes: Self.frame)]),
            drawing: id
        )
        record.isPublic = true
        let changes: [PersistenceWriter.Change] = [.turn(record)]
        try await database.pool.write { db in try PersistenceWriter.apply(changes, to: db, retention: 10) }
        #expect(try await database.drawingLog(id) == nil)
        #expect(try await database.gallery(GalleryQuery()).entries.isEmpty)
    }

    @Test func reportsCarryEvidenceAreRateLimitedAndModeratorsActOnThem() async throws {
        try await Self.withGalleryServer { port async throws in
            let turn = try await Self.drawnTurn(port: port, isPublic: true)
            let (ada, bob) = (turn.ada, turn.bob)
            ada.send(#"{"t":"chat","text":"you all draw badly"}"#)
            try await bob.next("chat", where: { $0["text"]?.stringValue == "you all draw badly" })
            let adaID = turn.adaID

            // A line Bob was never shown is refused; a line he saw is filed with its context.
            bob.send(#"{"t":"report","kind":"chat","from":"\#(adaID)","text":"never said","reason":"offensive"}"#)
            #expect(try await bob.next("error")["code"]?.stringValue == "unknown_target")
            bob.send(#"{"t":"report","kind":"chat","from":"\#(adaID)","text":"you all draw badly","reason":"offensive"}"#)
            let chatReport = try #require(try await bob.next("reported")["id"]?.stringValue)
            bob.send(#"{"t":"report","kind":"drawing","drawing":"\#(turn.id)","reason":"sexual"}"#)
            let drawingReport = try #require(try await bob.next("reported")["id"]?.stringValue)
            bob.send(#"{"t":"report","kind":"drawing","drawing":"\#(turn.id)","reason":"because"}"#)
            #expect(try await bob.next("error")["code"]?.stringValue == "bad_message")
            ada.send(#"{"t":"report","kind":"drawing","drawing":"\#(turn.id)","reason":"spam"}"#)
            #expect(try await ada.next("error")["code"]?.stringValue == "bad_message", "nobody reports their own drawing")

            // The moderator sees both, newest first, with the evidence captured then.
            #expect(try await HTTP.get(port: port, path: "/api/reports").status == 401)
            let list = try await HTTP.get(port: port, path: "/api/reports", token: Self.token)
            let reports = try #require(JSONValue.parse(list.body)?.arrayValue).compactMap { $0.objectValue }
            #expect(reports.map { $0["id"]?.stringValue } == [drawingReport, chatReport])
            let chat = try #require(reports.last)
            #expect(chat["kind"]?.stringValue == "chat" && chat["reason"]?.stringValue == "offensive")
            #expect(chat["reported"]?.objectValue?["name"]?.stringValue == "Ada")
            #expect(chat["chat"]?.arrayValue?.contains { $0.objectValue?["text"]?.stringValue == "you all draw badly" } == true)
            let drawing = try #require(reports.first)
            #expect(drawing["drawing"]?.stringValue == turn.id)
            let snapshot = try await HTTP.get(port: port, path: "/api/reports/\(drawingReport)/snapshot.png", token: Self.token)
            let png = try await HTTP.get(port: port, path: "/d/\(turn.id).png")
            #expect(snapshot.status == 200 && snapshot.body == png.body)
            #expect(try await HTTP.get(port: port, path: "/api/reports/\(drawingReport)/timelapse.apng", token: Self.token).status == 200)
            #expect(try await HTTP.get(port: port, path: "/api/reports/\(chatReport)/snapshot.png", token: Self.token).status == 404)

            // Remove: the drawing is gone and the report closed; dismiss closes the other.
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(chatReport)/remove", token: Self.token).status == 409)
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(drawingReport)/remove", token: Self.token).status == 204)
            #expect(try await HTTP.get(port: port, path: "/d/\(turn.id).png").status == 404)
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(chatReport)/dismiss", token: Self.token).status == 204)
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(chatReport)/dismiss", token: Self.token).status == 404)
            let after = try await HTTP.get(port: port, path: "/api/reports", token: Self.token)
            #expect(JSONValue.parse(after.body)?.arrayValue?.isEmpty == true)

            // Bob has used 2 of his 5 reports (refused ones cost nothing); the 6th is refused.
            for _ in 0..<3 {
                bob.send(#"{"t":"report","kind":"chat","from":"\#(adaID)","text":"you all draw badly","reason":"spam"}"#)
                try await bob.next("reported")
            }
            bob.send(#"{"t":"report","kind":"chat","from":"\#(adaID)","text":"you all draw badly","reason":"spam"}"#)
            let limited = try await bob.next("error")
            #expect(limited["code"]?.stringValue == "report_limited" && limited["ref"]?.stringValue == "report")

            // Ban: Ada leaves the room and cannot join or create another.
            let open = try #require(JSONValue.parse((try await HTTP.get(port: port, path: "/api/reports", token: Self.token)).body)?.arrayValue)
            let last = try #require(open.first?.objectValue?["id"]?.stringValue)
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(last)/ban", token: Self.token).status == 204)
            try await ada.next("kicked")
            ada.send(#"{"t":"create","public":true}"#)
            #expect(try await ada.next("error")["code"]?.stringValue == "banned")
        }
    }
}
