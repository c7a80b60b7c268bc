import DrawProtocol
import NIOCore
import NIOWebSocket

/// What a service does with a message it was given.
enum WebSocketDisposition: Equatable {
    case handled
    /// Not yet: give it again after this long (the connection's budget refills then).
    /// Nothing after it is handled meanwhile.
    case later(TimeAmount)
}

/// What a WebSocket connection serves: the game (`GameSession`) or the conformance echo.
/// Called on the connection's event loop.
protocol WebSocketService: AnyObject {
    /// A whole message (reassembled, inflated, its text valid UTF-8).
    func received(_ message: WebSocketReceiver.Message, on connection: WebSocketProtocolHandler) -> WebSocketDisposition
    /// The WebSocket layer sent its own close frame (answering the peer's, or failing the
    /// connection): nothing more may be written after it.
    func closeSent()
    /// The connection closed, however it closed. Called once.
    func connectionClosed()
    /// Runs `body` on `loop` once `delay` has passed on the clock `.later` is measured on
    /// (the game's for `GameSession`, so held messages wait in game time like its budgets).
    func wake(after delay: TimeAmount, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void)
}

extension WebSocketService {
    /// The event loop's own clock, for services whose delays are not game time.
    func wake(after delay: TimeAmount, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        loop.scheduleTask(in: delay, body)
    }
}

/// The WebSocket protocol of one upgraded connection, on its event loop, from the bytes the
/// socket read (its `WebSocketReceiver` parses them): answers pings, runs the close
/// handshake, closes with the right code when the peer breaks the protocol, and hands whole
/// messages to its service.
///
/// No task waits on the connection: an idle connection is its channel, its handlers and
/// its session, nothing more. A message the service will only take later (its connection's
/// budget is spent) waits here with what follows it (`HeldMessages`), and past a bound the
/// socket is not read: input is shaped, never dropped.
final class WebSocketProtocolHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long the server waits for the answer to its close before cutting the connection.
    static let closeAnswerTimeout = TimeAmount.seconds(3)

    private var receiver: WebSocketReceiver
    private let service: any WebSocketService
    private var context: ChannelHandlerContext?
    /// Messages the service will take later, and what was read behind them.
    private var held: HeldMessages
    /// Numbers the armed retry of held messages: a wake-up for an older one (or after the
    /// connection closed, which bumps it) does nothing. The service's clock has no cancel.
    private var retryArming = 0
    /// Told when reading stops for held messages, so the heartbeat does not blame the peer.
    private let activity: ActivityMonitor?
    private var readPending = false
    /// The loop's `ReadPoller` reads the socket, not NIO (whose reads are held back).
    private var isPolled = false
    private var closeDeadline: Scheduled<Void>?
    private var notifiedClosed = false
    private let lingering: LingeringClose.Configuration
    /// Set once the server's close frame and FIN are out (see `LingeringClose`): what the
    /// peer still sends is read and discarded, never parsed.
    private var linger: LingeringClose?

    init(
        receiver: WebSocketReceiver, service: any WebSocketService, activity: ActivityMonitor? = nil,
        holding: HeldMessages.Configuration = .init(), lingering: LingeringClose.Configuration = .init()
    ) {
        self.receiver = receiver
        self.service = service
        self.activity = activity
        self.held = HeldMessages(configuration: holding)
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

    /// Whether the loop's poller may read the socket: not while input is held back (reading
    /// stops then) nor once the close began (NIO reads what is left, see `LingeringClose`).
    var mayBePolled: Bool { held.mayRead && linger == nil && receiver.state == .open }

    /// From now on the poller reads the socket; NIO's next read is held back.
    func startPolling() {
        isPolled = true
    }

    /// The poller let go: NIO reads again (and finds the end of input or the error, if
    /// that is why).
    func stopPolling() {
        guard isPolled else { return }
        isPolled = false
        if let context { updateReading(context: context) }
    }

    /// Bytes the poller read, handled as if NIO had read them.
    func ingest(_ bytes: ByteBuffer) {
        guard let context else { return }
        handleRead(bytes, context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        handleRead(unwrapInboundIn(data), context: context)
    }

    /// Bytes read from the socket, by NIO or by the loop's poller.
    private func handleRead(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        if linger != nil {
            discard(bytes.readableBytes)
            return
        }
        receiver.append(bytes)
        parse(context: context)
    }

    /// Performs what the bytes read so far call for, while nothing holds it back.
    private func parse(context: ChannelHandlerContext) {
        while held.mayRead, let action = receiver.nextAction() {
            switch action {
            case .none:
                break
            case .message(let message):
                deliver(message)
            case .pong(let payload):
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: payload)), promise: nil)
            case .answerClose, .closeConnection, .fail:
                if held.isEmpty { perform(action, context: context) } else { held.keep(action) }
            }
        }
        updateReading(context: context)
    }

    private func perform(_ action: WebSocketReceiver.Action, context: ChannelHandlerContext) {
        switch action {
        case .answerClose(let code):
            writeCloseThenClose(context: context, code: code, reason: "")
        case .closeConnection:
            context.close(promise: nil)
        case .fail(let code, let reason):
            writeCloseThenClose(context: context, code: code, reason: reason)
        case .none, .message, .pong:
            break
        }
    }

    /// Gives the service a message, unless earlier ones wait; one it will take later waits
    /// with everything behind it.
    /// Whether more of the peer's input waits behind the message being handled: read in the
    /// same burst, or held with it. A service may then batch what it sends for this
    /// message with what the next ones send (the writes go out when the read burst ends).
    var hasInputBehind: Bool { held.count > 1 || receiver.hasBufferedInput }

    private func deliver(_ message: WebSocketReceiver.Message) {
        guard held.isEmpty else { return held.append(message) }
        if case .later(let delay) = service.received(message, on: self) {
            held.append(message)
            scheduleRetry(in: delay)
        }
    }

    private func scheduleRetry(in delay: TimeAmount) {
        guard let context else { return }
        retryArming += 1
        let (arming, handler) = (retryArming, NIOLoopBound(self, eventLoop: context.eventLoop))
        service.wake(after: delay, on: context.eventLoop) { handler.value.retryHeld(arming: arming) }
    }

    /// The service's budget has had time to refill: the waiting messages go in order, then
    /// what was read behind them.
    private func retryHeld(arming: Int) {
        guard arming == retryArming else { return }
        guard let context else { return }
        // Messages were held only while they could be delivered, so they still are, the
        // peer's close or a restart's close notwithstanding (a stroke read before either is
        // kept); only a close that stops taking input drops them.
        guard linger == nil, receiver.state != .closing(deliversMessages: false) else {
            held.removeAll()
            return
        }
        while let message = held.first {
            if case .later(let delay) = service.received(message, on: self) {
                scheduleRetry(in: delay)
                updateReading(context: context)
                return
            }
            held.removeFirst()
        }
        if let action = held.takeDeferredAction() { perform(action, context: context) }
        parse(context: context)
    }

    /// Reads stop while too much waits, and resume when it is handled.
    private func updateReading(context: ChannelHandlerContext) {
        let holding = !held.mayRead
        activity?.holdReads(holding)
        if !holding, !isPolled, readPending {
            readPending = false
            context.read()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The peer sent its FIN without a close frame: it can no longer answer a handshake,
        // so the connection ends now (Hummingbird lets channels half-close).
        if case .inputClosed = event as? ChannelEvent {
            // What was read before the FIN but waits for a budget is still handled.
            if held.isEmpty { context.close(promise: nil) } else { held.keep(.closeConnection) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Socket errors: protocol violations were answered with their close code above.
        context.close(promise: nil)
    }

    /// Reads are held back while too much waits for the service; while lingering, until
    /// the byte bound is reached.
    func read(context: ChannelHandlerContext) {
        if let linger {
            if linger.discardedBytes < linger.configuration.maxDiscardedBytes { context.read() }
        } else if !held.mayRead || isPolled {
            readPending = true
        } else {
            context.read()
        }
    }

    // MARK: - Called by the service, on the event loop

    /// Writes a message frame through the encoder (the echo; the game writes `WireFrame`s).
    func write(_ frame: WebSocketFrame) {
        context?.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    /// The server closes. Waiting for the answer, the peer's messages are handled only with
    /// `keepReceiving` (a restart); a peer that does not answer is cut off. Without waiting,
    /// the connection closes once the frame is out.
    func close(code: CloseCode, reason: String, waitForAnswer: Bool, keepReceiving: Bool = false) {
        guard let context, receiver.state == .open else { return }
        receiver.serverCloses(deliveringMessages: waitForAnswer && keepReceiving)
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
    private func writeCloseThenClose(context: ChannelHandlerContext, code: CloseCode, reason: String) {
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
        held.removeAll()
        retryArming += 1
        closeDeadline?.cancel()
        let channel = context.channel
        closeDeadline = context.eventLoop.scheduleTask(in: TimeAmount(lingering.timeout)) {
            channel.close(promise: nil)
        }
        // The FIN follows the close frame; reading goes on (held back reads included).
        context.close(mode: .output).assumeIsolated().whenComplete { result in
            if case .failure = result { channel.close(promise: nil) }
        }
        readPending = false
        activity?.holdReads(false)
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
        retryArming += 1
        held.removeAll()
        service.connectionClosed()
    }

    static func closeFrame(code: CloseCode, reason: String) -> WebSocketFrame {
        var payload = ByteBufferAllocator().buffer(capacity: 2 + reason.utf8.count)
        payload.writeInteger(code.rawValue)
        // A close payload is at most 125 bytes (RFC 6455 section 5.5).
        payload.writeBytes(reason.utf8.prefix(123))
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
    }
}
