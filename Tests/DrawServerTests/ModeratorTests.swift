import Canvas
import DrawProtocol
import Foundation
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

@Suite("Moderator HTTP API", .timeLimit(.minutes(1)))
struct ModeratorTests {
    static let token = "let-me-in"

    @Test func everyModeratorRouteNeedsTheToken() async throws {
        try await withServer({ $0.moderatorToken = Self.token }) { port async throws in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            let code = try await seat(ada, [])
            let routes = [("GET", "/api/rooms/\(code)"), ("GET", "/api/rooms/\(code)/canvas.png"), ("GET", "/api/rooms/\(code)/canvas.ppm"),
                          ("GET", "/api/rooms/\(code)/strokes"), ("POST", "/api/rooms/\(code)/kick/\(ada.playerID)"), ("DELETE", "/api/rooms/\(code)")]
            for (method, path) in routes {
                #expect(try await HTTP.request(method, port: port, path: path).status == 401, "\(method) \(path) without a token")
                #expect(try await HTTP.request(method, port: port, path: path, token: "nope").status == 401, "\(method) \(path) with a wrong token")
            }
            #expect(try await HTTP.get(port: port, path: "/api/rooms", token: "nope").status == 401)
            #expect(try await HTTP.get(port: port, path: "/api/rooms/ZZZZZZ", token: Self.token).status == 404)
            #expect(try await HTTP.get(port: port, path: "/api/rooms/ZZZZZZ/canvas.png", token: Self.token).status == 404)
        }
    }

    @Test func theBearerSchemeIsCaseInsensitive() {
        #expect(ModeratorAuth.bearerToken(in: "Bearer abc") == "abc")
        #expect(ModeratorAuth.bearerToken(in: "bearer abc") == "abc")
        #expect(ModeratorAuth.bearerToken(in: "BEARER   abc  ") == "abc")
        #expect(ModeratorAuth.bearerToken(in: "Basic abc") == nil)
        #expect(ModeratorAuth.bearerToken(in: "Bearer") == nil)
        #expect(ModeratorAuth.bearerToken(in: "Bearer   ") == nil)
    }

    @Test func withoutAConfiguredTokenEveryoneGets401() async throws {
        try await withServer { port async throws in
            #expect(try await HTTP.get(port: port, path: "/api/rooms/ABCDEF/canvas.png", token: "").status == 401)
            #expect(try await HTTP.get(port: port, path: "/api/rooms/ABCDEF/canvas.png", token: "anything").status == 401)
            #expect(try await HTTP.get(port: port, path: "/api/rooms").status == 200)
        }
    }

    @Test func publicListHidesPrivateRoomsButModeratorsSeeAll() async throws {
        try await withServer({ $0.moderatorToken = Self.token }) { port async throws in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            ada.send(#"{"t":"create","public":false}"#)
            let code = try await ada.next("room")["code"]?.stringValue ?? ""
            let anonymous = JSONValue.parse(try await HTTP.get(port: port, path: "/api/rooms").body)?.arrayValue ?? []
            #expect(anonymous.isEmpty)
            let all = JSONValue.parse(try await HTTP.get(port: port, path: "/api/rooms", token: Self.token).body)?.arrayValue ?? []
            #expect(all.first?.objectValue?["code"]?.stringValue == code)
            #expect(all.first?.objectValue?["phase"]?.stringValue == "lobby")
            #expect(all.first?.objectValue?["players"]?.intValue == 1)
            #expect(all.first?.objectValue?["node"] == nil, "one node: rooms name no node")
        }
    }

    /// Ada and Bob seated in Ada's room, and the game started.
    static func startedGame(port: Int) async throws -> (ada: TestClient, bob: TestClient, code: String) {
        let ada = TestClient.connect(port: port)
        let bob = TestClient.connect(port: port)
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        let code = try await seat(ada, [bob])
        ada.send(#"{"t":"start"}"#)
        return (ada, bob, code)
    }

    /// Issue 39, item 9: during the podium the moderator's thumbnail shows the last drawing,
    /// as the players' screens do.
    @Test func theCanvasDuringTheGameEndIsTheLastDrawing() async throws {
        try await withServer({ $0.moderatorToken = Self.token; $0.room.gameEndMs = 5_000 }) { port async throws in
            let (ada, bob, code) = try await Self.startedGame(port: port)
            try await ada.next("choose")
            ada.send(#"{"t":"choose","index":0}"#)
            try await ada.next("turn")
            ada.send(#"{"t":"skip"}"#)
            try await bob.next("choose")
            bob.send(#"{"t":"choose","index":0}"#)
            try await bob.next("turn")
            let frame = strokeBytes(from: Point(x: 30, y: 40), to: Point(x: 600, y: 500), width: 25)
            bob.send(binary: frame)
            _ = try await ada.nextBinary()
            bob.send(#"{"t":"skip"}"#)
            try await ada.next("gameEnd")
            var drawing = Drawing(size: .standard)
            _ = try drawing.apply(frame: frame)
            let png = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
            #expect(png.body == PNGEncoder.encode(Renderer.render(drawing)))
        }
    }

    @Test func snapshotsShowTheRoomsCanvas() async throws {
        try await withServer({ $0.moderatorToken = Self.token }) { port async throws in
            let (ada, bob, code) = try await Self.startedGame(port: port)
            try await ada.next("choose")
            ada.send(#"{"t":"choose","index":0}"#)
            try await ada.next("turn")
            let frame = strokeBytes(from: Point(x: 30, y: 40), to: Point(x: 600, y: 500), width: 25)
            ada.send(binary: frame)
            _ = try await bob.nextBinary()
            var drawing = Drawing(size: .standard)
            _ = try drawing.apply(frame: frame)
            let expected = Renderer.render(drawing)

            let ppm = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.ppm", token: Self.token)
            #expect(ppm.status == 200)
            let header = Array("P6\n800 600\n255\n".utf8)
            #expect(Array(ppm.body.prefix(header.count)) == header)
            #expect(Array(ppm.body.dropFirst(header.count)) == expected.pixels)

            let png = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
            #expect(png.status == 200)
            #expect(png.body == PNGEncoder.encode(expected))
            let again = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
            #expect(again.body == png.body)

            let small = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.png?max=200", token: Self.token)
            #expect(small.body == PNGEncoder.encode(expected.fitted(maxSide: 200)))
            let big = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.ppm?scale=2", token: Self.token)
            #expect(big.body.count == "P6\n1600 1200\n255\n".utf8.count + 1600 * 1200 * 3)
            #expect(try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.png?scale=9", token: Self.token).status == 400)

            let strokes = try await HTTP.get(port: port, path: "/api/rooms/\(code)/strokes", token: Self.token)
            let log = try StrokeLog(ndjson: strokes.text)
            #expect(log.frames.map(\.bytes) == [frame])
        }
    }

    @Test func kickAndCloseReachThePlayers() async throws {
        try await withServer({ $0.moderatorToken = Self.token }) { port async throws in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let code = try await seat(ada, [bob])
            #expect(try await HTTP.request("POST", port: port, path: "/api/rooms/\(code)/kick/\(bob.playerID)", token: Self.token).status == 204)
            try await bob.next("kicked")
            #expect(try await HTTP.request("POST", port: port, path: "/api/rooms/\(code)/kick/\(bob.playerID)", token: Self.token).status == 404)
            #expect(try await HTTP.request("DELETE", port: port, path: "/api/rooms/\(code)", token: Self.token).status == 204)
            try await ada.next("closed")
            #expect(try await HTTP.get(port: port, path: "/api/rooms/\(code)", token: Self.token).status == 404)
            ada.send(#"{"t":"quickplay"}"#)
            try await ada.next("room")
        }
    }

    /// A session keeps the room it draws in until room membership changes: a drawer whose
    /// room a moderator closed mid-turn is told so by its next frame, which reaches no one.
    @Test func aDrawerWhoseRoomWasClosedIsRefusedAtTheNextFrame() async throws {
        try await withServer({ $0.moderatorToken = Self.token }) { port async throws in
            let (ada, bob, code) = try await Self.startedGame(port: port)
            let choosing = try await ada.next("room") { $0["phase"]?.stringValue == "choosing" }
            let (drawer, guesser) = choosing["drawer"]?.stringValue == ada.playerID ? (ada, bob) : (bob, ada)
            drawer.send(#"{"t":"choose","index":0}"#)
            try await drawer.next("turn")
            let stroke = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 90, y: 90))
            drawer.send(binary: stroke)
            #expect(try await guesser.nextBinary() == stroke)
            let metrics = try await HTTP.get(port: port, path: "/metrics").text
            #expect(metrics.contains(#"drawserver_messages_in_total{kind="binary"} 1"#))
            #expect(metrics.contains(#"drawserver_messages_out_total{kind="binary"} 1"#))
            #expect(metrics.contains(#"drawserver_bytes_out_total{kind="binary"} \#(stroke.count)"#))

            #expect(try await HTTP.request("DELETE", port: port, path: "/api/rooms/\(code)", token: Self.token).status == 204)
            try await drawer.next("closed")
            drawer.send(binary: stroke)
            let error = try await drawer.next("error")
            #expect(error["code"]?.stringValue == "not_drawer")
            #expect(error["message"]?.stringValue == "you are not drawing in a room")
        }
    }

    @Test func metricsAndProbes() async throws {
        try await withServer { port async throws in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await seat(ada, [])
            #expect(try await HTTP.get(port: port, path: "/healthz").text == "ok")
            #expect(try await HTTP.get(port: port, path: "/readyz").status == 200)
            let metrics = try await HTTP.get(port: port, path: "/metrics").text
            #expect(metrics.contains("drawserver_connections 1"))
            #expect(metrics.contains(#"drawserver_rooms{phase="lobby"} 1"#))
            #expect(metrics.contains(#"drawserver_messages_in_total{kind="hello"} 1"#))
            #expect(metrics.contains(#"drawserver_messages_out_total{kind="welcome"} 1"#))
            #expect(metrics.contains("drawserver_relay_latency_seconds"))
        }
    }
}
