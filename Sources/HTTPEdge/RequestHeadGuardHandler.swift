import Logging
import NIOCore
import NIOHTTP1

/// Does what `RequestHeadGuard` decides for one HTTP connection, on its event loop.
///
/// It sits at the front of the pipeline, where it sees the raw bytes (the first one tells a
/// TLS handshake; any byte starts a request head's deadline) and writes its refusals
/// straight to the socket. Its `Tap`, right after the HTTP decoder, tells it where requests
/// and responses begin and end and which parse error the decoder hit. A refusal is written,
/// the output half-closed, and what the peer still sends read and dropped until it closes
/// or `drainPatience` passes: closing with unread input would make the kernel send a reset,
/// and the peer could lose the answer.
public final class RequestHeadGuardHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    /// Runs `body` on `loop` once `delay` has passed (the server's clock: real, or a test's
    /// virtual time); returns what cancels it.
    public typealias Schedule = @Sendable (_ delay: Duration, _ loop: any EventLoop, _ body: @escaping @Sendable () -> Void) -> Cancel
    public typealias Cancel = @Sendable () -> Void

    /// How long a refused connection is drained before it is closed anyway.
    public static let drainPatience: Duration = .seconds(2)

    private var machine = RequestHeadGuard()
    private let configuration: RequestHeadGuard.Configuration
    private let schedule: Schedule
    /// Told the peer's address when a connection opens with a TLS handshake.
    private let onMisdirectedTLS: @Sendable (String) -> Void
    private let logger: Logger
    private var context: ChannelHandlerContext?
    /// Each armed deadline's number: a timer that fires for an older one does nothing (a
    /// cancel may not stop a timer already on its way).
    private var timerGeneration = 0
    /// Cancels the armed deadline. Cancelled as soon as it is not needed: a pending timer
    /// holds this handler, and every connection's first request head arms one, so a burst
    /// of upgraded WebSockets would hold them all for `headerTimeout`.
    private var cancelTimer: Cancel?
    private var timerArmed: Bool { cancelTimer != nil }

    public init(
        configuration: RequestHeadGuard.Configuration, schedule: @escaping Schedule,
        onMisdirectedTLS: @escaping @Sendable (String) -> Void, logger: Logger
    ) {
        self.configuration = configuration
        self.schedule = schedule
        self.onMisdirectedTLS = onMisdirectedTLS
        self.logger = logger
    }

    /// The handler that reports the decoder's view back to this one; it goes right after
    /// the HTTP decoder.
    public func makeTap() -> Tap { Tap(owner: self) }

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        perform(machine.connectionStarted())
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        disarmTimer()
        self.context = nil
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard machine.isReading else { return }  // refused: drained, not decoded
        let bytes = unwrapInboundIn(data)
        perform(machine.bytesArrived(firstByte: bytes.readableBytesView.first))
        guard machine.isReading else { return }
        context.fireChannelRead(data)
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !machine.isReading, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        if event is ChannelShouldQuiesceEvent {
            perform(machine.quiesce())
            guard machine.isReading else { return }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func perform(_ action: RequestHeadGuard.Action) {
        guard let context else { return }
        switch action {
        case .none:
            break
        case .armTimer:
            armTimer(on: context)
        case .cancelTimer:
            disarmTimer()
        case .refuse(let refusal):
            disarmTimer()
            refuse(refusal, context: context)
        case .close(let reason):
            disarmTimer()
            if reason == .tlsOnPlainPort { onMisdirectedTLS(context.channel.remoteAddress?.ipAddress ?? "unknown") }
            context.close(promise: nil)
        }
    }

    private func armTimer(on context: ChannelHandlerContext) {
        disarmTimer()
        timerGeneration += 1
        let generation = timerGeneration
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        cancelTimer = schedule(configuration.headerTimeout, context.eventLoop) {
            let handler = bound.value
            guard handler.timerArmed, handler.timerGeneration == generation else { return }
            handler.cancelTimer = nil
            handler.perform(handler.machine.timerFired())
        }
    }

    private func disarmTimer() {
        guard let cancel = cancelTimer else { return }
        cancelTimer = nil
        cancel()
    }

    private func refuse(_ refusal: RequestHeadGuard.Refusal?, context: ChannelHandlerContext) {
        let channel = context.channel
        _ = schedule(Self.drainPatience, context.eventLoop) { channel.close(promise: nil) }
        guard let refusal else {
            channel.close(mode: .output, promise: nil)
            return
        }
        let body = "\(refusal.status.code) \(refusal.status.reasonPhrase): \(refusal.detail)\n"
        let text = "HTTP/1.1 \(refusal.status.code) \(refusal.status.reasonPhrase)\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        logger.debug("bad HTTP request refused", metadata: ["status": "\(refusal.status.code)", "detail": "\(refusal.detail)"])
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
    }

    fileprivate func headParsed() { perform(machine.headParsed()) }
    fileprivate func requestEnded() { perform(machine.requestEnded()) }
    fileprivate func parseFailed(_ error: HTTPParserError) { perform(machine.parseFailed(error)) }
    fileprivate func responseStarted() { machine.responseStarted() }
    fileprivate func responseEnded() { perform(machine.responseEnded()) }

    /// Sits right after the HTTP decoder: reports request and response boundaries and parse
    /// errors to its owner, and keeps those errors from the handlers behind it (the owner
    /// answers them; left to run on, they would hold the connection until a timeout).
    public final class Tap: ChannelDuplexHandler, RemovableChannelHandler {
        public typealias InboundIn = HTTPServerRequestPart
        public typealias InboundOut = HTTPServerRequestPart
        public typealias OutboundIn = HTTPServerResponsePart
        public typealias OutboundOut = HTTPServerResponsePart

        private let owner: RequestHeadGuardHandler

        fileprivate init(owner: RequestHeadGuardHandler) { self.owner = owner }

        public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: owner.headParsed()
            case .body: break
            case .end: owner.requestEnded()
            }
            context.fireChannelRead(data)
        }

        public func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if let error = error as? HTTPParserError {
                owner.parseFailed(error)
            } else if let error = error as? ByteToMessageDecoderError, case .dataReceivedInErrorState = error {
                return  // the rest of a request already refused
            } else {
                context.fireErrorCaught(error)
            }
        }

        public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let part = unwrapOutboundIn(data)
            context.write(data, promise: promise)
            switch part {
            // An informational head (100 Continue) has no end: it does not start the answer.
            case .head(let head) where head.status.code >= 200 || head.status == .switchingProtocols: owner.responseStarted()
            case .head, .body: break
            // After the response's own end went on, so a refusal follows it on the wire.
            case .end: owner.responseEnded()
            }
        }
    }
}
