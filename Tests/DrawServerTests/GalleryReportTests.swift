import Canvas
import DrawProtocol
import Foundation
@testable import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// Reports of a canvas still being drawn (linked to the turn's drawing when it ends) and
/// reports made from `/gallery` over HTTP (docs/PROTOCOL.md section 10.3).
@Suite("Reports of unfinished drawings and from /gallery", .timeLimit(.minutes(1)))
struct GalleryReportTests {
    static let token = GalleryServerTests.token

    /// The open reports as the moderator page reads them.
    static func reports(_ port: Int) async throws -> [[String: JSONValue]] {
        let reply = try await HTTP.get(port: port, path: "/api/reports", token: token)
        return JSONValue.parse(reply.body)?.arrayValue?.compactMap(\.objectValue) ?? []
    }

    /// Ada draws (host, first drawer) for Bob in a public room; Bob reports the canvas
    /// while it is drawn. Returns both, Ada's word and the report's id.
    static func reportedWhileDrawn(port: Int) async throws -> (ada: TestClient, bob: TestClient, word: String, report: String) {
        let ada = TestClient.connect(port: port)
        let bob = TestClient.connect(port: port)
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        let turn = try await startTurn(ada, [bob])
        let word = try #require(turn["word"]?.stringValue)
        ada.send(binary: GalleryServerTests.frame)
        _ = try await bob.nextBinary()
        bob.send(#"{"t":"report","kind":"drawing","reason":"offensive"}"#)
        let report = try #require(try await bob.next("reported")["id"]?.stringValue)
        return (ada, bob, word, report)
    }

    @Test func aCanvasReportedWhileDrawnCanBeRemovedOnceItsTurnEnds() async throws {
        try await GalleryServerTests.withGalleryServer { port async throws in
            let (_, bob, word, report) = try await Self.reportedWhileDrawn(port: port)
            let early = try await HTTP.request("POST", port: port, path: "/api/reports/\(report)/remove", token: Self.token)
            #expect(early.status == 409 && early.text.contains("not ended yet"), "\(early.text)")
            let open = try #require(try await Self.reports(port).first)
            #expect(open["drawing"] == nil && open["snapshot"]?.stringValue != nil, "the canvas so far, no drawing yet")
            #expect(open["turn"]?.stringValue == "pending")

            bob.send(#"{"t":"chat","text":"\#(word)"}"#)
            let end = try await bob.next("turnEnd")
            let drawing = try #require(end["drawing"]?.objectValue?["id"]?.stringValue)
            // The store's row is linked just after the turn ends.
            try await waitUntil { try await Self.reports(port).first?["drawing"]?.stringValue == drawing }
            #expect(try await Self.reports(port).first?["turn"]?.stringValue == "ended")
            #expect(try await HTTP.get(port: port, path: "/d/\(drawing).png").status == 200)
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(report)/remove", token: Self.token).status == 204)
            #expect(try await HTTP.get(port: port, path: "/d/\(drawing).png").status == 404)
            #expect(try await Self.reports(port).isEmpty)
        }
    }

    @Test func aReportAtTheTurnsEndNamesItsDrawingAtOnce() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A turnEnd long enough for the report to arrive in it on a busy machine.
        try await withServer({ $0.databasePath = path; $0.moderatorToken = Self.token; $0.room.turnEndMs = 30_000 }) { port async throws in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let word = try #require(try await startTurn(ada, [bob], settings: #"{"rounds":2}"#)["word"]?.stringValue)
            ada.send(binary: GalleryServerTests.frame)
            _ = try await bob.nextBinary()
            bob.send(#"{"t":"chat","text":"\#(word)"}"#)
            let drawing = try #require(try await bob.next("turnEnd")["drawing"]?.objectValue?["id"]?.stringValue)
            bob.send(#"{"t":"report","kind":"drawing","reason":"spam"}"#)
            let report = try #require(try await bob.next("reported")["id"]?.stringValue)
            #expect(try await Self.reports(port).first { $0["id"]?.stringValue == report }?["drawing"]?.stringValue == drawing)
        }
    }

    @Test func aTurnThatEndsWithAnEmptyCanvasSaysSoToTheModerator() async throws {
        try await GalleryServerTests.withGalleryServer { port async throws in
            let (ada, bob, word, report) = try await Self.reportedWhileDrawn(port: port)
            var cursor = StrokeCursor()
            ada.send(binary: FrameCodec.encode([.clear], cursor: &cursor))
            _ = try await bob.nextBinary()
            bob.send(#"{"t":"chat","text":"\#(word)"}"#)
            #expect(try await bob.next("turnEnd")["drawing"] == nil, "an empty canvas gets no drawing")
            try await waitUntil {
                let reply = try await HTTP.request("POST", port: port, path: "/api/reports/\(report)/remove", token: Self.token)
                return reply.status == 409 && reply.text.contains("empty canvas")
            }
            #expect(try await Self.reports(port).first?["turn"]?.stringValue == "empty")
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(report)/dismiss", token: Self.token).status == 204)
        }
    }

    @Test func aPlayerReportsADrawingFromTheGalleryWithItsToken() async throws {
        try await GalleryServerTests.withGalleryServer { port async throws in
            let turn = try await GalleryServerTests.drawnTurn(port: port, isPublic: true)
            let path = "/api/drawings/\(turn.id)/report"
            func post(_ token: String?, _ body: String = #"{"reason":"hateful"}"#, path: String = path) async throws -> HTTP.Reply {
                try await HTTP.request("POST", port: port, path: path, token: token, body: body)
            }
            #expect(try await post(nil).status == 401, "a visitor without a player token")
            #expect(try await post("not-a-player-token").status == 401)
            #expect(try await post(turn.bob.token, #"{"reason":"ugly"}"#).status == 400)
            #expect(try await post(turn.bob.token, "not json").status == 400)
            #expect(try await post(turn.ada.token).status == 403, "nobody reports their own drawing")
            #expect(try await post(turn.bob.token, path: "/api/drawings/AAAAAAAAAAAAAAAAAAAAAA/report").status == 404)
            #expect(try await post(turn.bob.token, path: "/api/drawings/nope/report").status == 404)

            let filed = try await post(turn.bob.token)
            #expect(filed.status == 201)
            let id = try #require(JSONValue.parse(filed.body)?.objectValue?["id"]?.stringValue)
            let report = try #require(try await Self.reports(port).first { $0["id"]?.stringValue == id })
            #expect(report["drawing"]?.stringValue == turn.id && report["reason"]?.stringValue == "hateful")
            #expect(report["reporter"]?.objectValue?["name"]?.stringValue == "Bob")
            #expect(report["reported"]?.objectValue?["name"]?.stringValue == "Ada")
            let snapshot = try await HTTP.get(port: port, path: "/api/reports/\(id)/snapshot.png", token: Self.token)
            let png = try await HTTP.get(port: port, path: "/d/\(turn.id).png")
            #expect(snapshot.status == 200 && snapshot.body == png.body)
            #expect(try await HTTP.get(port: port, path: "/api/reports/\(id)/timelapse.apng", token: Self.token).status == 200)

            // The same budget as in-game reports: 5 in 10 minutes per player.
            for _ in 0..<4 { #expect(try await post(turn.bob.token).status == 201) }
            #expect(try await post(turn.bob.token).status == 429)
            turn.bob.send(#"{"t":"report","kind":"drawing","drawing":"\#(turn.id)","reason":"spam"}"#)
            #expect(try await turn.bob.next("error")["code"]?.stringValue == "report_limited")

            // Removed: the gallery's report answers 404 like its images.
            #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(id)/remove", token: Self.token).status == 204)
            let eve = TestClient.connect(port: port)
            try await eve.hello("Eve")
            #expect(try await post(eve.token).status == 404)
        }
    }
}
