import DrawClient
import Foundation
import ServerTestSupport
import Testing

/// DrawClient against a real `drawserver serve` process over loopback WebSockets.
@Suite(.serialized) struct LiveServerTests {
    /// Every client of these tests comes from loopback: no per-address connection cap.
    static let loopback = ["--max-connections-per-ip", "0"]

    private func client(_ name: String, url: String) -> (DrawClient, Inbox) {
        var configuration = DrawClient.Configuration()
        configuration.reconnect.initialDelay = .milliseconds(100)
        configuration.reconnect.maxDelay = .milliseconds(500)
        configuration.jitterSeed = 1
        let client = DrawClient(transport: WebSocketTransport(url: url), name: name, configuration: configuration)
        return (client, Inbox(client))
    }

    /// Ada creates a room, Bob joins it by code; each sees the other's chat.
    private func seatTwo(url: String) async throws -> (ada: DrawClient, adaInbox: Inbox, bob: DrawClient, bobInbox: Inbox, code: RoomCode) {
        let (ada, adaInbox) = client("Ada", url: url)
        let (bob, bobInbox) = client("Bob", url: url)
        try await ada.connect()
        try await bob.connect()
        try await ada.send(.create(name: "Test", isPublic: false, settings: SettingsPatch(rounds: 1)))
        guard case .room(let room) = try await adaInbox.message("room") else { throw InboxTimeout() }
        try await bob.send(.join(code: room.code.rawValue.lowercased()))
        guard case .room(let joined) = try await bobInbox.message("room") else { throw InboxTimeout() }
        #expect(joined.code == room.code)
        #expect(Set(joined.players.map(\.name)) == ["Ada", "Bob"])
        return (ada, adaInbox, bob, bobInbox, room.code)
    }

    @Test func joinByCodeAndChatRoundTrip() async throws {
        let server = try await ServerProcess(Self.loopback + ["--seed", "7"])
        let (ada, adaInbox, bob, bobInbox, _) = try await seatTwo(url: server.url)
        try await ada.send(.chat("hello Bob"))
        let line = try await bobInbox.next { event -> (from: PlayerID, text: String)? in
            if case .message(.chat(let from, _, let text), _) = event { (from, text) } else { nil }
        }
        #expect(line.text == "hello Bob")
        #expect(line.from == (await ada.playerID))
        try await bob.send(.chat("hi Ada"))
        let back = try await adaInbox.next { event -> String? in
            if case .message(.chat(_, "Bob", let text), _) = event { text } else { nil }
        }
        #expect(back == "hi Ada")
        // An error comes back typed, and the session goes on.
        try await bob.send(.start)
        guard case .error(let error) = try await bobInbox.message("error") else { return }
        #expect(error.code == .notHost && error.ref == "start")
        await ada.stop()
        await bob.stop()
    }

    @Test func drawingOperationsReachTheOtherPlayerByteExact() async throws {
        let server = try await ServerProcess(Self.loopback + ["--seed", "7"])
        let (ada, adaInbox, bob, bobInbox, _) = try await seatTwo(url: server.url)
        try await ada.send(.start)
        guard case .choose(let words, _) = try await adaInbox.message("choose") else { return }
        #expect(!words.isEmpty)
        try await ada.send(.choose(index: 0))
        guard case .turn(_, _, _, _, let word) = try await adaInbox.message("turn") else { return }
        #expect(word != nil)
        guard case .turn(let drawer, _, let mask, _, let hidden) = try await bobInbox.message("turn") else { return }
        #expect(drawer == (await ada.playerID) && hidden == nil && !mask.isEmpty)

        let operations: [DrawOperation] = [
            .begin(tool: .pen, color: RGB(r: 200, g: 30, b: 30), width: 6, at: Point(x: 100, y: 100)),
            .points([Point(x: 140, y: 120), Point(x: 180, y: 90), Point(x: 260, y: 300)]),
            .end,
            .fill(color: RGB(r: 0, g: 0, b: 255), at: Point(x: 700, y: 500)),
        ]
        var encoder = DrawingEncoder()
        let sent = encoder.encode(operations)
        try await ada.draw(operations)
        var received: [UInt8] = []
        while received.count < sent.count {
            received += try await bobInbox.next { event -> [UInt8]? in
                if case .drawing(let bytes) = event { bytes } else { nil }
            }
        }
        #expect(received == sent)
        var decoder = DrawingDecoder(size: CanvasSize(width: 800, height: 600))
        #expect(try decoder.decode(received) == operations)
        await ada.stop()
        await bob.stop()
    }

    /// The server drains (1012 to everyone) and restarts on the same port and database;
    /// the client keeps retrying with backoff, resumes with its token, and is back in its
    /// room with the same player id.
    @Test func resumesWithItsTokenAfterTheServerClosesTheSocket() async throws {
        let database = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let arguments = ["--db", database, "--drain-timeout-seconds", "1"]
        let first = try await ServerProcess(Self.loopback + arguments)
        let port = first.port
        let (ada, adaInbox, bob, bobInbox, code) = try await seatTwo(url: first.url)
        let adaID = await ada.playerID
        let token = await ada.token
        #expect(token != nil)

        #expect(await first.terminate() == 0)
        let retry = try await adaInbox.next { event -> Duration?? in
            if case .disconnected(.serviceRestart, let retryIn) = event { retryIn } else { nil }
        }
        #expect(retry != nil)
        // While the server is down, attempts fail and back off.
        _ = try await adaInbox.next { event in if case .connecting(let attempt) = event, attempt >= 3 { true } else { nil } }

        let second = try await ServerProcess(port: port, Self.loopback + arguments)
        let welcome = try await adaInbox.next(within: 30) { event -> (id: PlayerID, token: String, resumed: Bool)? in
            if case .message(.welcome(let id, let token, let resumed, _, _), _) = event { (id, token, resumed) } else { nil }
        }
        #expect(welcome.resumed && welcome.id == adaID && welcome.token == token)
        guard case .room(let room) = try await adaInbox.message("room") else { return }
        #expect(room.code == code)
        #expect(room.players.contains { $0.id == adaID })

        // Bob comes back too, and chat flows again.
        _ = try await bobInbox.next(within: 30) { event in if case .message(.welcome, _) = event { true } else { nil } }
        try await bob.send(.chat("back again"))
        let name = try await adaInbox.next { event -> String? in
            if case .message(.chat(_, let name, "back again"), _) = event { name } else { nil }
        }
        #expect(name == "Bob")
        await ada.stop()
        await bob.stop()
        _ = second
    }

    /// 4001: another connection took over the token. Reconnecting would throw it out in
    /// turn, so the older client stops instead of fighting.
    @Test func aClientReplacedByAnotherWithItsTokenStops() async throws {
        let server = try await ServerProcess(Self.loopback)
        let (ada, adaInbox) = client("Ada", url: server.url)
        let welcome = try await ada.connect()
        let twin = DrawClient(transport: WebSocketTransport(url: server.url), name: "Ada", token: welcome.token)
        let again = try await twin.connect()
        #expect(again.resumed && again.playerID == welcome.playerID)
        let retry = try await adaInbox.next { event -> Duration?? in
            if case .disconnected(.replaced, let retryIn) = event { retryIn } else { nil }
        }
        #expect(retry == nil)
        _ = try await adaInbox.next { event in if case .stopped(.closed(.replaced)) = event { true } else { nil } }
        await #expect(throws: DrawClientError.self) { try await ada.send(.rooms) }
        await twin.stop()
    }
}
