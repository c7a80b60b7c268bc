import DrawProtocol
import Foundation
import HTTPEdge
import Logging
import ServerTestSupport
import NIOEmbedded
import Testing
@testable import DrawServer

@Suite("Connection rules", .timeLimit(.minutes(1)))
struct ConnectionTests {
    @Test func noHelloInTimeCloses4003() async throws {
        try await withServer({ $0.limits.helloTimeout = .seconds(1) }) { port in
            let client = TestClient.connect(port: port)
            #expect(await client.closeCode(within: 5) == 4003)
        }
    }

    /// The header timeout runs on the server's clock, real here: 3 s, so the request below
    /// is answered well inside it on a loaded machine (at 1 s it was not, 1 full run in 16).
    @Test func aConnectionThatSendsNoRequestIsClosed() async throws {
        try await withServer({ $0.limits.requestHead.headerTimeout = .seconds(3) }) { port in
            let socket = try SilentSocket(port: port)
            // A request on another connection is answered while the silent one stays open:
            // it is the request timeout that closes it, not its arrival.
            #expect(try await HTTP.get(port: port, path: "/readyz").status == 200)
            #expect(socket.isOpen)
            #expect(await offThePool { socket.waitForClose(seconds: 10) })
        }
    }

    @Test func aConnectionRegisteredAfterTheDrainBeganIsToldToComeBack() {
        let server = GameServer(configuration: ServerConfiguration(), logger: Logger(label: "drawserver-test"))
        let early = Outbox(limit: 1 << 20, eventLoop: EmbeddedEventLoop(), hardClose: {})
        #expect(server.register(server.newConnectionID(), outbox: early, ip: "10.0.0.1") == .accepted)
        let listed = server.beginDrain()
        #expect(listed.count == 1 && listed.first === early)
        // Upgraded before readiness went 503, registered after the drain took its list.
        let late = Outbox(limit: 1 << 20, eventLoop: EmbeddedEventLoop(), hardClose: {})
        #expect(server.register(server.newConnectionID(), outbox: late, ip: "10.0.0.1") == .draining)
        // Still counted, so the drain waits for it and cuts it off at the timeout.
        #expect(server.connectionCount == 2)
    }

    @Test func messagesBeforeHelloAreRefused() async throws {
        try await withServer { port in
            let client = TestClient.connect(port: port)
            client.send(#"{"t":"rooms"}"#)
            let error = try await client.next("error")
            #expect(error["code"]?.stringValue == "bad_message")
        }
    }

    @Test func sameTokenTwiceClosesTheOlderWith4001() async throws {
        try await withServer { port in
            let first = TestClient.connect(port: port)
            try await first.hello("Ada")
            let second = TestClient.connect(port: port)
            let welcome = try await second.hello("Ada", token: first.token)
            #expect(welcome["resumed"]?.boolValue == true)
            #expect(await first.closeCode() == 4001)
            second.send(#"{"t":"rooms"}"#)
            try await second.next("rooms")
        }
    }

    @Test func badNameIsAnErrorNotAClose() async throws {
        try await withServer { port in
            let client = TestClient.connect(port: port)
            client.send(#"{"t":"hello","name":"   "}"#)
            #expect(try await client.next("error")["code"]?.stringValue == "bad_name")
            try await client.hello("Ada")
        }
    }

    @Test func binaryFrameOverTheLimitCloses1009() async throws {
        try await withServer { port in
            let client = TestClient.connect(port: port)
            try await client.hello("Ada")
            client.send(binary: [UInt8](repeating: 6, count: 70_000))
            #expect(await client.closeCode() == 1009)
        }
    }

    @Test func invalidUTF8Closes1007() async throws {
        try await withServer { port in
            let client = TestClient.connect(port: port)
            try await client.hello("Ada")
            client.send(rawText: [0x7B, 0xFF, 0xFE, 0x7D])
            #expect(await client.closeCode() == 1007)
        }
    }

    @Test func inviteReachesAnOnlinePlayer() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let code = try await seat(ada, [])
            ada.send(#"{"t":"invite","playerId":"\#(bob.playerID)"}"#)
            let invited = try await bob.next("invited")
            #expect(invited["code"]?.stringValue == code)
            #expect(invited["from"]?.objectValue?["id"]?.stringValue == ada.playerID)
            ada.send(#"{"t":"invite","playerId":"nobody"}"#)
            #expect(try await ada.next("error")["code"]?.stringValue == "not_online")
        }
    }

    @Test func quickplayFillsTheFullestRoom() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            ada.send(#"{"t":"quickplay"}"#)
            let code = try await ada.next("room")["code"]?.stringValue
            let bob = TestClient.connect(port: port)
            try await bob.hello("Bob")
            bob.send(#"{"t":"quickplay"}"#)
            #expect(try await bob.next("room")["code"]?.stringValue == code)
            bob.send(#"{"t":"rooms"}"#)
            let rooms = try await bob.next("rooms")["rooms"]?.arrayValue ?? []
            #expect(rooms.first?.objectValue?["players"]?.intValue == 2)
        }
    }
}

@Suite("Compression limits", .timeLimit(.minutes(1)))
struct CompressionTests {
    @Test func compressedPlayWorksAndADeflateBombCloses1009() async throws {
        try await withServer({ $0.limits.permessageDeflate = true }) { port in
            let fine = TestClient.connect(port: port, compression: true)
            try await fine.hello("Zip")
            fine.send(#"{"t":"rooms"}"#)
            try await fine.next("rooms")
            let bomb = TestClient.connect(port: port, compression: true)
            try await bomb.hello("Bomb")
            // 1 MB of spaces compresses to about a kilobyte and inflates far past 64 KiB.
            bomb.send(#"{"t":"chat","text":""# + String(repeating: " ", count: 1_000_000) + #""}"#)
            let code = await bomb.closeCode()
            #expect(code == 1009, "history: \(bomb.history.suffix(3))")
            fine.send(#"{"t":"rooms"}"#)
            try await fine.next("rooms")
        }
    }
}

/// A TCP connection that never says anything.
private struct SilentSocket: Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try connectToLoopback(fd, port: port)
    }

    /// True while the server has not closed the connection (nothing to read yet).
    var isOpen: Bool {
        var pollfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pollfd, 1, 0) == 0
    }

    /// True when the server closes the connection within `seconds`.
    func waitForClose(seconds: Int) -> Bool {
        var pollfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        defer { close(fd) }
        guard poll(&pollfd, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) <= 0
    }
}
