import NIOCore
import NIOWebSocket

/// What a WebSocket connection serves: the game (`GameSession`) or the conformance echo.
/// Called on the connection's event loop.
protocol WebSocketService: AnyObject {
    /// A whole message (reassembled, inflated, its text valid UTF-8).
    func received(_ message: WebSocketReceiver.Message, on connection: WebSocketProtocolHandler)
    /// The WebSocket layer sent its own close frame (answering the peer's, or failing the
    /// connection): nothing more may be written after it.
    func closeSent()
    /// The connection closed, however it closed. Called once.
    func connectionClosed()
}

/// The WebSocket protocol of one upgraded connection, on its event loop, from the bytes the
/// socket read (its `WebSocketReceiver` parses them): answers pings, runs the close
/// handshake, closes with the right code when the peer breaks the protocol, and hands whole
/// messages to its service.
///
/// No task waits on the connection: an idle connection is its channel, its handlers and
/// its session, nothing more. The service pauses reading when it has messages in hand.
final class WebSocketProtocolHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long the server waits for the answer to its close before cutting the connection.
    static let closeAnswerTimeout = TimeAmount.seconds(3)

    private var receiver: WebSocketReceiver
    private let service: any WebSocketService
    private var context: ChannelHandlerContext?
    private var readingPaused = false
    private var readPending = false
    private var closeDeadline: Scheduled<Void>?
    private var notifiedClosed = false
    private let lingering: LingeringClose.Configuration
    /// Set once the server's close frame and FIN are out (see `LingeringClose`): what the
    /// peer still sends is read and discarded, never parsed.
    private var linger: LingeringClose?

    init(receiver: WebSocketReceiver, service: any WebSocketService, lingering: LingeringClose.Configuration = .init()) {
        self.receiver = receiver
        self.service = service
        self.lingering = lingering
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        notifyClosed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        notifyClosed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if linger != nil {
            discard(unwrapInboundIn(data).readableBytes)
            return
        }
        receiver.append(unwrapInboundIn(data))
        while let action = receiver.nextAction() {
            switch action {
            case .none:
                break
            case .message(let message):
                service.received(message, on: self)
            case .pong(let payload):
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: payload)), promise: nil)
            case .answerClose(let code):
                writeCloseThenClose(context: context, code: code, reason: "")
            case .closeConnection:
                context.close(promise: nil)
            case .fail(let code, let reason):
                writeCloseThenClose(context: context, code: code, reason: reason)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The peer sent its FIN without a close frame: it can no longer answer a handshake,
        // so the connection ends now (Hummingbird lets channels half-close).
        if case .inputClosed = event as? ChannelEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Socket errors: protocol violations were answered with their close code above.
        context.close(promise: nil)
    }

    /// Reads are held back while the service is paused; while lingering, until the byte
    /// bound is reached.
    func read(context: ChannelHandlerContext) {
        if let linger {
            if linger.discardedBytes < linger.configuration.maxDiscardedBytes { context.read() }
        } else if readingPaused {
            readPending = true
        } else {
            context.read()
        }
    }

    // MARK: - Called by the service, on the event loop

    func pauseReading() {
        readingPaused = true
    }

    func resumeReading() {
        guard readingPaused else { return }
        readingPaused = false
        if readPending {
            readPending = false
            context?.read()
        }
    }

    /// Writes a message frame through the encoder (the echo; the game writes `WireFrame`s).
    func write(_ frame: WebSocketFrame) {
        context?.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    /// The server closes. Waiting for the answer, nothing more is handled; a peer that does
    /// not answer is cut off. Without waiting, the connection closes once the frame is out.
    func close(code: UInt16, reason: String, waitForAnswer: Bool) {
        guard let context, receiver.state == .open else { return }
        receiver.serverCloses()
        guard waitForAnswer else {
            writeCloseThenClose(context: context, code: code, reason: reason)
            return
        }
        context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code: code, reason: reason)), promise: nil)
        let channel = context.channel
        closeDeadline = context.eventLoop.scheduleTask(in: Self.closeAnswerTimeout) {
            channel.closeAbortively()
        }
    }

    /// Sends the close frame, then closes lingering (see `LingeringClose`).
    private func writeCloseThenClose(context: ChannelHandlerContext, code: UInt16, reason: String) {
        service.closeSent()
        context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code: code, reason: reason))).assumeIsolated().whenComplete { result in
            guard case .success = result, let context = self.context else {
                self.context?.close(promise: nil)
                return
            }
            self.startLingering(context: context)
        }
    }

    private func startLingering(context: ChannelHandlerContext) {
        linger = LingeringClose(configuration: lingering)
        closeDeadline?.cancel()
        let channel = context.channel
        closeDeadline = context.eventLoop.scheduleTask(in: lingering.timeout) {
            channel.close(promise: nil)
        }
        // The FIN follows the close frame; reading goes on (held back reads included).
        context.close(mode: .output).assumeIsolated().whenComplete { result in
            if case .failure = result { channel.close(promise: nil) }
        }
        readingPaused = false
        readPending = false
        context.read()
    }

    private func discard(_ count: Int) {
        guard var linger else { return }
        _ = linger.discarded(count)
        self.linger = linger
    }

    private func notifyClosed() {
        guard !notifiedClosed else { return }
        notifiedClosed = true
        closeDeadline?.cancel()
        service.connectionClosed()
    }

    static func closeFrame(code: UInt16, reason: String) -> WebSocketFrame {
        var payload = ByteBufferAllocator().buffer(capacity: 2 + reason.utf8.count)
        payload.writeInteger(code)
        // A close payload is at most 125 bytes (RFC 6455 section 5.5).
        payload.writeBytes(reason.utf8.prefix(123))
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
    }
}
