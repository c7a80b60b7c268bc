import DrawProtocol
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import DrawServer

/// Messages held back for a budget when a close comes are still handled before it: a
/// stroke read before the peer's close, or while a restart's close is on its way, is kept.
@Suite("Held messages and the close")
struct HeldOnCloseTests {
    /// Takes each message only on its second offer (its budget refills in between), and
    /// records what it took.
    final class SlowService: WebSocketService {
        var offered = 0
        var taken: [WebSocketReceiver.Message] = []
        var closed = false

        func received(_ message: WebSocketReceiver.Message, on connection: WebSocketProtocolHandler) -> WebSocketDisposition {
            offered += 1
            if offered % 2 == 1 { return .later(.milliseconds(10)) }
            taken.append(message)
            return .handled
        }

        func closeSent() {}
        func connectionClosed() { closed = true }
    }

    static func binary(_ byte: UInt8) -> ByteBuffer { WebSocketReceiverTests.frame(.binary, [byte]).wire }

    /// The handler on an embedded channel, with `service` behind it.
    static func connection(_ service: SlowService) throws -> (EmbeddedChannel, WebSocketProtocolHandler) {
        let channel = EmbeddedChannel()
        let handler = WebSocketProtocolHandler(receiver: WebSocketReceiver(maxMessageBytes: 65_536, deflate: false), service: service)
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: "10.0.0.1", port: 9)).wait()
        return (channel, handler)
    }

    @Test func aFrameHeldWhenThePeerClosesIsHandledBeforeTheAnswer() throws {
        let service = SlowService()
        let (channel, _) = try Self.connection(service)
        try channel.writeInbound(Self.binary(1))
        try channel.writeInbound(WebSocketReceiverTests.frame(.connectionClose, [0x03, 0xE8]).wire)
        #expect(service.taken.isEmpty, "held for its budget")
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil, "the answer waits behind it")
        (channel.eventLoop as? EmbeddedEventLoop)?.advanceTime(by: .milliseconds(10))
        #expect(service.taken == [.binary(ByteBuffer(bytes: [1]))])
        let answer = try channel.readOutbound(as: WebSocketFrame.self)
        #expect(answer?.opcode == .connectionClose)
    }

    @Test func framesHeldWhileARestartsCloseIsOnItsWayAreHandled() throws {
        let service = SlowService()
        let (channel, handler) = try Self.connection(service)
        handler.close(code: .serviceRestart, reason: "restarting", waitForAnswer: true, keepReceiving: true)
        #expect(try channel.readOutbound(as: WebSocketFrame.self)?.opcode == .connectionClose)
        try channel.writeInbound(Self.binary(2))
        try channel.writeInbound(Self.binary(3))
        try channel.writeInbound(WebSocketReceiverTests.frame(.connectionClose, [0x03, 0xF4]).wire)
        for _ in 0..<3 { (channel.eventLoop as? EmbeddedEventLoop)?.advanceTime(by: .milliseconds(10)) }
        #expect(service.taken == [.binary(ByteBuffer(bytes: [2])), .binary(ByteBuffer(bytes: [3]))])
    }

    @Test func framesHeldWhenAnotherCloseBeginsAreDropped() throws {
        let service = SlowService()
        let (channel, handler) = try Self.connection(service)
        try channel.writeInbound(Self.binary(4))
        handler.close(code: .replaced, reason: "replaced", waitForAnswer: true)
        (channel.eventLoop as? EmbeddedEventLoop)?.advanceTime(by: .milliseconds(10))
        #expect(service.taken.isEmpty, "a replaced connection's input is not the player's any more")
    }
}
