import DrawProtocol
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import ServerTestSupport
import Testing
@testable import DrawServer

/// One `/ws` connection's handlers on an `EmbeddedChannel`: the WebSocket protocol's own
/// answers, and the order in which the session sees the connection's messages.
@Suite("Game session on its event loop")
struct GameSessionTests {
    let outbox: Outbox
    let channel = EmbeddedChannel()
    let game: GameSession

    init() throws {
        outbox = Outbox(limit: 1 << 20, eventLoop: channel.embeddedEventLoop, hardClose: {})
        let server = GameServer(configuration: ServerConfiguration(), logger: Logger(label: "drawserver-test"))
        game = GameSession(server: server, outbox: outbox, remoteIP: "10.0.0.1")
        game.timers = ConnectionTimers(
            eventLoop: channel.eventLoop, limits: server.configuration.limits, outbox: outbox, activity: ActivityMonitor(),
            hasSaidHello: { true }, hardClose: {}
        )
        let handler = WebSocketProtocolHandler(receiver: WebSocketReceiver(maxMessageBytes: 65_536, deflate: false), service: game)
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: "10.0.0.1", port: 9)).wait()
    }

    /// The `ref`s of the errors the session queued for the client so far.
    func errorRefs() throws -> [String] {
        var frames: [WireFrame] = []
        var close: Outbox.Close?
        _ = outbox.take(into: &frames, close: &close)
        return try frames.map { frame in
            let object = try JSONSerialization.jsonObject(with: Data(frame.payload.readableBytesView)) as? [String: Any]
            return object?["ref"] as? String ?? "?"
        }
    }

    @Test func messagesAreHandledWhereTheyAreReadInTheirOrder() throws {
        try channel.writeInbound(WebSocketReceiverTests.frame(.binary).wire)
        #expect(try errorRefs() == ["binary"])  // judged where it was read: "say hello first"

        // Text and drawing frames alike are answered before the read returns, in order.
        try channel.writeInbound(WebSocketReceiverTests.text(#"{"t":"rooms"}"#).wire)
        try channel.writeInbound(WebSocketReceiverTests.frame(.binary).wire)
        #expect(try errorRefs() == ["rooms", "binary"])
    }

    @Test func pingsAreAnsweredAndTheCloseHandshakeEndsTheConnection() throws {
        try channel.writeInbound(WebSocketReceiverTests.frame(.ping, [7]).wire)
        let pong = try channel.readOutbound(as: WebSocketFrame.self)
        #expect(pong?.opcode == .pong && pong?.data == ByteBuffer(bytes: [7]))

        try channel.writeInbound(WebSocketReceiverTests.frame(.connectionClose, [0x03, 0xE8]).wire)
        let close = try channel.readOutbound(as: WebSocketFrame.self)
        #expect(close?.opcode == .connectionClose && close?.data.getInteger(at: 0, as: UInt16.self) == 1000)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func aProtocolViolationClosesWithItsCode() throws {
        try channel.writeInbound(WebSocketReceiverTests.frame(.binary, masked: false).wire)
        let close = try channel.readOutbound(as: WebSocketFrame.self)
        #expect(close?.data.getInteger(at: 0, as: UInt16.self) == 1002)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func theServersCloseWaitsForTheAnswerThenCloses() throws {
        let handler = try channel.pipeline.syncOperations.handler(type: WebSocketProtocolHandler.self)
        handler.close(code: .noHello, reason: "no hello", waitForAnswer: true)
        let close = try channel.readOutbound(as: WebSocketFrame.self)
        #expect(close?.data.getInteger(at: 0, as: UInt16.self) == 4003)
        // Messages that arrive meanwhile are not handled.
        try channel.writeInbound(WebSocketReceiverTests.frame(.binary).wire)
        #expect(try errorRefs().isEmpty)
        #expect(channel.isActive)
        try channel.writeInbound(WebSocketReceiverTests.frame(.connectionClose, [0x0F, 0xA3]).wire)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func aPeerThatHalfClosesIsDisconnected() throws {
        // Hummingbird allows half-closure; a FIN without a close frame ends the connection.
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func nothingIsWrittenAfterTheCloseFrameTheLayerSent() throws {
        try channel.writeInbound(WebSocketReceiverTests.frame(.connectionClose, [0x03, 0xE8]).wire)
        #expect(outbox.isClosing)
        #expect(!outbox.send(WireFrame(.text, payload: [0x7B, 0x7D])))
    }

    @Test func framesBeforeHelloAreRefusedUntilThe1008Close() throws {
        for _ in 0..<130 { try channel.writeInbound(WebSocketReceiverTests.frame(.binary).wire) }
        let refs = try errorRefs()
        // No honest client draws before its hello: each is a strike, and the 30th closes.
        #expect(refs.count == 30)
        #expect(refs.allSatisfy { $0 == "binary" })
        #expect(outbox.isClosing)
    }
}

/// A closed connection's handlers, session and inflater are freed.
@Suite("Game session clean-up")
struct GameSessionCleanUpTests {
    /// Waits up to a second for `released` (clean-up may finish on a task).
    static func waitUntil(_ released: () -> Bool) async throws {
        for _ in 0..<500 where !released() {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func aClosedConnectionLeavesNothingBehind() async throws {
        weak var weakGame: GameSession?
        weak var weakHandler: WebSocketProtocolHandler?
        do {
            let channel = EmbeddedChannel()
            let server = GameServer(configuration: ServerConfiguration(), logger: Logger(label: "drawserver-test"))
            let outbox = Outbox(limit: 1 << 20, eventLoop: channel.embeddedEventLoop, hardClose: {})
            let game = GameSession(server: server, outbox: outbox, remoteIP: "10.0.0.1")
            game.timers = ConnectionTimers(
                eventLoop: channel.eventLoop, limits: server.configuration.limits, outbox: outbox, activity: ActivityMonitor(),
                hasSaidHello: { true }, hardClose: {}
            )
            let handler = WebSocketProtocolHandler(receiver: WebSocketReceiver(maxMessageBytes: 65_536, deflate: true), service: game)
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "10.0.0.1", port: 9)).wait()
            weakGame = game
            weakHandler = handler
            try channel.writeInbound(WebSocketReceiverTests.frame(.binary, rsv1: true, WebSocketReceiverTests.deflated([1, 2, 3])).wire)
            _ = try channel.close().wait()
            channel.embeddedEventLoop.run()
        }
        try await Self.waitUntil { weakGame == nil && weakHandler == nil }
        #expect(weakGame == nil)
        #expect(weakHandler == nil)
    }

    /// The whole production wiring: the output holds its handler strongly (no weak load on
    /// the hot path), so the cycle output, handler must be broken when the channel goes, or
    /// every closed connection would keep its pipeline.
    @Test func aClosedConnectionLetsGoOfItsOutputAndHandlers() async throws {
        weak var weakWriter: ConnectionOutput?
        weak var weakHandler: SocketHandler?
        let server = GameServer(configuration: ServerConfiguration(), logger: Logger(label: "drawserver-test"))
        do {
            let channel = EmbeddedChannel()
            try channel.connect(to: SocketAddress(ipAddress: "10.0.0.2", port: 9)).wait()
            try server.acceptWebSocket(channel: channel, deflate: false)
            let handler = try channel.pipeline.syncOperations.handler(type: SocketHandler.self)
            weakHandler = handler
            weakWriter = handler.output
            #expect(weakWriter != nil)
            // Something queued and written, so the output has been listed and drained once.
            server.allOutboxes.first?.sendText(Array("{}".utf8))
            channel.embeddedEventLoop.run()
            #expect(try channel.readOutbound(as: ByteBuffer.self) != nil)
            _ = try channel.close().wait()
            channel.embeddedEventLoop.run()
        }
        try await Self.waitUntil { weakWriter == nil && weakHandler == nil }
        #expect(weakWriter == nil)
        #expect(weakHandler == nil)
    }
}
