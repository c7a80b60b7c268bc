import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import DrawServer

/// The event-loop shortcut for drawing frames keeps them in order with everything the
/// connection sent before them.
@Suite("Drawing fast path")
struct DrawingFastPathTests {
    let outbox = Outbox(limit: 1 << 20, hardClose: {})
    let backlog = DrawingFastPath.Backlog()
    let channel: EmbeddedChannel

    init() throws {
        let server = GameServer(configuration: ServerConfiguration(), logger: Logger(label: "drawserver-test"))
        let session = ClientSession(server: server, outbox: outbox, remoteIP: "10.0.0.1")
        channel = EmbeddedChannel(handler: DrawingFastPath(session: session, backlog: backlog, maxMessageBytes: 65_536))
    }

    static func frame(_ opcode: WebSocketOpcode, fin: Bool = true, masked: Bool = true, rsv1: Bool = false, _ bytes: [UInt8] = [0x05]) -> WebSocketFrame {
        let key: WebSocketMaskingKey? = masked ? WebSocketMaskingKey([1, 2, 3, 4]) : nil
        var data = ByteBuffer(bytes: bytes)
        if let key { data.webSocketMask(key) }
        return WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, maskKey: key, data: data)
    }

    /// Whether the frame went on to the reader task (else the fast path took it).
    func passesOn(_ frame: WebSocketFrame) throws -> Bool {
        try channel.writeInbound(frame)
        return try channel.readInbound(as: WebSocketFrame.self) != nil
    }

    /// Frames the session queued for the client (here: errors, as no hello was said).
    func replies() -> Int {
        var frames: [WireFrame] = []
        var close: Outbox.Close?
        _ = outbox.take(into: &frames, close: &close)
        return frames.count
    }

    @Test func aFrameIsHandledWhereItWasReadOnlyWhenNothingBeforeItIsWaiting() throws {
        #expect(try !passesOn(Self.frame(.binary)))
        #expect(replies() == 1)  // judged at once: "say hello first"

        // A text message goes to the reader; drawing frames after it wait behind it.
        #expect(try passesOn(Self.frame(.text, Array(#"{"t":"rooms"}"#.utf8))))
        #expect(try passesOn(Self.frame(.binary)))
        #expect(replies() == 0)
        backlog.handled()
        #expect(try passesOn(Self.frame(.binary)))  // the earlier frame is still waiting
        backlog.handled()
        backlog.handled()
        #expect(try !passesOn(Self.frame(.binary)))
        #expect(replies() == 1)
    }

    @Test func framesItIsNotSureAboutGoToTheReader() throws {
        #expect(try passesOn(Self.frame(.binary, masked: false)))  // the WebSocket layer closes with 1002
        #expect(try passesOn(Self.frame(.binary, rsv1: true)))  // compressed
        #expect(try passesOn(Self.frame(.binary, Array(repeating: 0, count: 65_537))))  // over the limit
        #expect(try passesOn(Self.frame(.binary, fin: false)))  // a fragmented message...
        #expect(try passesOn(Self.frame(.continuation)))  // ...and its end
        for _ in 0..<4 { backlog.handled() }
        #expect(try !passesOn(Self.frame(.binary)))
        #expect(try passesOn(Self.frame(.connectionClose, [0x03, 0xE8])))
        #expect(try passesOn(Self.frame(.binary)))  // nothing after the peer's close
    }
}
