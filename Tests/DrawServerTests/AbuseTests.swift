import Canvas
import DrawProtocol
import Foundation
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

@Suite("Abuse limits and liveness", .serialized, .timeLimit(.minutes(3)))
struct AbuseTests {
    /// A burst of guesses (a phone back from a tunnel) is judged late, never faster than the
    /// chat budget (5 per 3 s), and never refused.
    @Test func aBurstOfGuessesIsJudgedLateNotRefused() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let word = try #require(try await startTurn(ada, [bob])["word"]?.stringValue)
            let before = try await messagesDelayed(port: port)
            for i in 0..<5 { bob.send(#"{"t":"chat","text":"guess \#(i)"}"#) }
            bob.send(#"{"t":"guess","text":"\#(word)"}"#)
            try await bob.next("guessed", within: 10)
            // The sixth needs a token back (3000 / 5 ms after the first five): it was held.
            #expect(try await messagesDelayed(port: port) - before >= 1, "the guess waited for the chat budget")
            let chats = bob.history.filter { if case .json(.object(let o)) = $0 { o["t"] == .string("chat") } else { false } }
            #expect(chats.count == 5, "every chat line of the burst was shown")
            #expect(!bob.history.contains { if case .json(.object(let o)) = $0 { o["t"] == .string("error") } else { false } })
        }
    }

    /// A burst of drawing frames is shaped to the frame budget: delivered whole and in
    /// order, late rather than dropped, and the drawer gets no error.
    @Test func aDrawingBurstIsShapedAndDeliveredWhole() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await startTurn(ada, [bob])
            var sent: [UInt8] = []
            for i in 0..<400 {
                let dot = strokeBytes(from: Point(x: Int32(i % 700), y: Int32(10 + i / 700)), to: Point(x: Int32(i % 700 + 1), y: Int32(11 + i / 700)))
                sent += dot
                ada.send(binary: dot)
            }
            let received = try await bob.nextBinary(bytes: sent.count, within: 15)
            #expect(received == sent, "every operation, in order")
            // 120 frames at once, then 120 a second: the rest were held for the budget.
            #expect(try await messagesDelayed(port: port) >= 1, "the burst was shaped")
            ada.send(#"{"t":"rooms"}"#)
            try await ada.next("rooms")
            #expect(!ada.history.contains { if case .json(.object(let o)) = $0 { o["t"] == .string("error") } else { false } })
        }
    }

    /// A drawer flooding maximum-size frames (about 32,000 points each) is shaped to the
    /// point budget: over 10 s of game time the room relays no more than 10 s of budget plus
    /// one frame, the flooder is not closed, and another room's drawing arrives whole
    /// meanwhile. On virtual time: the budget, the held frames' retries and the window are
    /// all the server's clock, so the count is exact however loaded the machine.
    @Test func aFloodOfMaximumSizeFramesRelaysNoMoreThanThePointBudget() async throws {
        let clock = ManualServerClock()
        try await withServer(clock: clock) { port in
            let flooder = TestClient.connect(port: port)
            let witness = TestClient.connect(port: port)
            let drawer = TestClient.connect(port: port)
            let guesser = TestClient.connect(port: port)
            for (client, name) in [(flooder, "Flood"), (witness, "Witness"), (drawer, "Drawer"), (guesser, "Guesser")] {
                try await client.hello(name)
            }
            for (host, other) in [(flooder, witness), (drawer, guesser)] {
                try await startTurn(host, [other], settings: #"{"rounds":1,"drawTimeSec":240}"#)
            }
            let frame = Self.maximumFrame()
            let pointsPerFrame = 31 * 1024
            for _ in 0..<200 { flooder.send(binary: frame) }
            var relayedBytes = 0
            func relayed(atLeast bytes: Int) async throws {
                while relayedBytes < bytes {
                    switch await witness.nextEvent(within: 10) {
                    case .binary(let received)?: relayedBytes += received.count
                    case .closed?, nil: throw TestClientError.timeout("the flood's relayed frames")
                    default: continue
                    }
                }
            }
            // The first frame goes through at game time 0, on a full budget.
            try await relayed(atLeast: frame.count)

            // Meanwhile another room draws 100 frames at 50 a second of game time.
            var sent: [UInt8] = []
            for i in 0..<100 {
                let dot = strokeBytes(from: Point(x: Int32(10 + i), y: 10), to: Point(x: Int32(11 + i), y: 12))
                sent += dot
                drawer.send(binary: dot)
                clock.advance(by: .milliseconds(20))
            }
            let received = try await guesser.nextBinary(bytes: sent.count, within: 5)
            #expect(received == sent, "the other room's drawing arrived whole, in order")

            // On to 10 s of game time, a tenth of a second at a time, so each held retry
            // runs at its own time; the flood's next retry is then due after the window.
            while clock.now < .seconds(10) { clock.advance(by: .milliseconds(100)) }
            let budget = ServerConfiguration().limits.pointRate
            let allowed = budget.count * 10 * 1_000 / budget.periodMs + budget.count + pointsPerFrame
            // The point debt of one frame takes about 7 s to pay back: a second frame fits.
            try await relayed(atLeast: 2 * frame.count)
            try await waitUntil { (clock.nextDue ?? .zero) > .seconds(10) }
            let relayedPoints = relayedBytes / frame.count * pointsPerFrame
            print("maximum-size flood: \(relayedPoints) points relayed in 10 s of game time (allowed \(allowed))")
            #expect(relayedBytes == 2 * frame.count, "two frames in 10 s: the third is due at about 14 s")
            #expect(relayedPoints <= allowed)
            #expect(!flooder.history.contains { if case .closed = $0 { true } else { false } }, "shaped, not closed")
        }
    }

    /// CLEAR, then a one-pixel pen that goes back and forth 31 x 1024 times: 63,593 bytes.
    static func maximumFrame() -> [UInt8] {
        var bytes: [UInt8] = [0x06, 0x01, 0, 0, 0, 0, 1, 0xC8, 0x01, 0xC8, 0x01]
        for _ in 0..<31 {
            bytes += [0x02, 0x80, 0x08]
            for pair in 0..<1024 { bytes += [pair % 2 == 0 ? 2 : 1, 0] }
        }
        bytes.append(0x03)
        return bytes
    }

    @Test func sustainedAbuseCloses1008() async throws {
        try await withServer { port in
            let client = TestClient.connect(port: port)
            try await client.hello("Spam")
            for _ in 0..<40 { client.send("not json") }
            #expect(await client.closeCode() == 1008)
        }
    }

    /// The server closes lingering: a client still flooding when it is cut off reads the
    /// errors and the 1008 close frame instead of a reset that discards them. Drawing
    /// frames before `hello` are such a flood (an honest client never sends one).
    @Test func aFloodingClientReadsItsErrorsAndThe1008Close() async throws {
        try await withServer { port in
            let client = TestClient.connect(port: port)
            let dot = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 11, y: 11))
            // Far more than the budgets allow, queued at once: the client writes them as fast
            // as the socket takes them, and is still writing when the server closes.
            for _ in 0..<20_000 { client.send(binary: dot) }
            var refused = 0
            var closeCode: Int?
            while let event = await client.nextEvent(within: 10) {
                if case .json(.object(let object)) = event, object["code"]?.stringValue == "bad_message" { refused += 1 }
                if case .closed(let code) = event {
                    closeCode = code
                    break
                }
            }
            #expect(refused >= 1, "the errors sent before the close arrive too")
            #expect(closeCode == 1008)
        }
    }

    /// The same at the socket: a peer that floods without reading until the server stops
    /// taking its bytes finds the 1008 close frame and the server's FIN. Its writes never
    /// meet a reset: client libraries tear the connection down on that write error before
    /// reading what had arrived, which is how the close frame used to be lost.
    @Test func aPeerFloodingWithoutReadingFindsThe1008CloseFrame() async throws {
        try await withServer { port in
            let peer = try await RawWebSocket(port: port)
            #expect(peer.status == 101)
            let dot = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 11, y: 11))
            let frame = [0x82, 0x80 | UInt8(dot.count), 1, 2, 3, 4] + dot.enumerated().map { $0.element ^ UInt8($0.offset % 4 + 1) }
            let (written, writeError) = await peer.flood(frame, maxBytes: 64 << 20)
            #expect(writeError != ECONNRESET && writeError != EPIPE, "writing failed (errno \(writeError)) after \(written) bytes: the server reset the connection")
            let (bytes, reset) = await peer.readToEnd(within: 5)
            let frames = RawWebSocket.frames(in: bytes)
            let close = frames.last { $0.opcode == 0x8 }
            #expect(!reset, "the server closed with a reset after \(written) bytes; the peer got \(bytes.count) bytes")
            #expect(close.map { Int($0.payload[0]) << 8 | Int($0.payload[1]) } == 1008)
            #expect(frames.contains { $0.opcode == 0x1 && String(decoding: $0.payload, as: UTF8.self).contains("say hello first") })
        }
    }

    @Test func connectionsPerIPAreCapped() async throws {
        try await withServer({ $0.limits.maxConnectionsPerIP = 3 }) { port in
            var clients: [TestClient] = []
            for i in 0..<3 {
                let client = TestClient.connect(port: port)
                try await client.hello("P\(i)")
                clients.append(client)
            }
            let refused = try await RawWebSocket(port: port)
            #expect(refused.status == 429)
            clients[0].close()
            _ = await clients[0].closeCode()
            // Once the server has let go of it (its address's count drops with it).
            try await waitUntil { try await metricValue("drawserver_connections", port: port) == 2 }
            let admitted = TestClient.connect(port: port)
            try await admitted.hello("Later")
        }
    }

    /// Behind a trusted proxy each player's forwarded address has its own cap; the same
    /// header from an untrusted peer is ignored (it would let a client pick its address).
    @Test func forwardedAddressesAreCappedApartOnlyFromTrustedProxies() async throws {
        try await withServer({
            $0.limits.maxConnectionsPerIP = 1
            $0.forwardedFor = ForwardedFor(trustedProxies: ["127.0.0.1"])
        }) { port in
            let ada = TestClient.connect(port: port, headers: ["X-Forwarded-For": "203.0.113.1"])
            try await ada.hello("Ada")
            let bob = TestClient.connect(port: port, headers: ["X-Forwarded-For": "203.0.113.2"])
            try await bob.hello("Bob")
            let again = try await RawWebSocket(port: port, handshake: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Forwarded-For: 198.51.100.9, 203.0.113.1\r\n")
            #expect(again.status == 429, "the rightmost untrusted entry counts, not the one the client wrote")
        }
        try await withServer({ $0.limits.maxConnectionsPerIP = 1 }) { port in
            let ada = TestClient.connect(port: port, headers: ["X-Forwarded-For": "203.0.113.1"])
            try await ada.hello("Ada")
            let bob = try await RawWebSocket(port: port, handshake: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Forwarded-For: 203.0.113.2\r\n")
            #expect(bob.status == 429, "without --trusted-proxies the header is ignored: both are 127.0.0.1")
        }
    }

    /// NIO's upgrader refuses these by closing the connection; a client author gets told why.
    @Test func badHandshakesAreAnsweredNotDropped() async throws {
        try await withServer { port in
            let noKey = try await RawWebSocket(port: port, handshake: "Sec-WebSocket-Version: 13\r\n")
            #expect(noKey.status == 400)
            let twoKeys = try await RawWebSocket(port: port, handshake: "Sec-WebSocket-Key: a2V5\r\nSec-WebSocket-Key: b3RoZXI=\r\nSec-WebSocket-Version: 13\r\n")
            #expect(twoKeys.status == 400)
            let oldVersion = try await RawWebSocket(port: port, handshake: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n")
            #expect(oldVersion.status == 426)
            #expect(oldVersion.responseHead.lowercased().contains("sec-websocket-version: 13"))
            let noVersion = try await RawWebSocket(port: port, handshake: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")
            #expect(noVersion.status == 426)
            // And a good one still upgrades.
            #expect(try await RawWebSocket(port: port).status == 101)
        }
    }

    @Test func originsOutsideTheListGet403() async throws {
        try await withServer({ $0.limits.allowedOrigins = ["https://draw.example"] }) { port async throws in
            #expect(try await RawWebSocket(port: port, origin: "https://evil.example").status == 403)
            #expect(try await RawWebSocket(port: port, origin: "https://draw.example").status == 101)
            #expect(try await RawWebSocket(port: port).status == 101, "clients without Origin (native apps) are allowed")
        }
    }

    @Test func aClientThatStopsReadingIsClosedAndKeepsItsSeat() async throws {
        try await withServer({ configuration in
            configuration.limits.outboundQueueBytes = 64 * 1024
            configuration.limits.frameRate = Rate(10_000, perMs: 1_000)
            configuration.limits.pointRate = Rate(10_000_000, perMs: 1_000)
            configuration.room.maxDrawingPoints = .max
            configuration.room.maxDrawingItems = .max
            configuration.room.maxDrawingInkAreas = .max
            configuration.room.maxTurnLogBytes = 64 << 20
        }) { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            let code = try await seat(ada, [])
            let slow = try await RawWebSocket(port: port, receiveBuffer: 4096)
            slow.sendText(#"{"t":"hello","name":"Slow"}"#)
            slow.sendText(#"{"t":"join","code":"\#(code)"}"#)
            try await ada.next("joined")
            try await startGame(ada)
            // Big valid frames: a 1,024-point zig-zag, over and over.
            var cursor = StrokeCursor()
            let zigzag = FrameCodec.encode([
                .begin(tool: .pen, color: .black, width: 3, at: Point(x: 0, y: 0)),
                .points((0..<1024).map { Point(x: Int32($0 % 2 == 0 ? 790 : 10), y: Int32($0 % 600)) }),
                .end,
            ], cursor: &cursor)
            let start = ContinuousClock.now
            var disconnected = false
            var overflowAt: ContinuousClock.Instant?
            while !disconnected, ContinuousClock.now - start < .seconds(30) {
                for _ in 0..<50 { ada.send(binary: zigzag) }
                if overflowAt == nil, try await HTTP.get(port: port, path: "/metrics").text.contains("drawserver_queue_overflows_total 1") {
                    overflowAt = .now
                }
                while let event = await ada.nextEvent(within: 0.05) {
                    if case .json(.object(let room)) = event, room["t"] == .string("room"),
                       room["players"]?.arrayValue?.contains(where: { $0.objectValue?["name"]?.stringValue == "Slow" && $0.objectValue?["connected"]?.boolValue == false }) == true {
                        disconnected = true
                    }
                }
            }
            print("slow reader: queue overflowed after \(overflowAt.map { $0 - start } ?? .zero) of flooding; seat shown disconnected \(overflowAt.map { ContinuousClock.now - $0 } ?? .zero) after the overflow")
            #expect(disconnected, "the slow reader was disconnected")
            #expect(await slow.drain(seconds: 10) == nil, "its socket was closed by the server")
            let room = try await HTTP.get(port: port, path: "/metrics")
            #expect(room.text.contains("drawserver_queue_overflows_total 1"))
        }
    }

    @Test func silentPeersAreCutOffByTheHeartbeat() async throws {
        try await withServer({ configuration in
            configuration.limits.pingInterval = .seconds(1)
            configuration.limits.pingTimeout = .seconds(1)
        }) { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            let code = try await seat(ada, [])
            let silent = try await RawWebSocket(port: port)
            silent.sendText(#"{"t":"hello","name":"Ghost"}"#)
            silent.sendText(#"{"t":"join","code":"\#(code)"}"#)
            try await ada.next("joined")
            // When (interval + timeout) is ConnectionTimersTests' to check, on virtual time.
            try await ada.next("room", within: 30) { room in
                room["players"]?.arrayValue?.contains { $0.objectValue?["name"]?.stringValue == "Ghost" && $0.objectValue?["connected"]?.boolValue == false } ?? false
            }
            // The well-behaved client answers pings and stays: it connected before the silent
            // peer, so its own pings timed out no later than the peer's, and it is still here.
            ada.send(#"{"t":"rooms"}"#)
            try await ada.next("rooms")
        }
    }
}
