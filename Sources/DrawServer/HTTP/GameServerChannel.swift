import HTTPEdge
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// Each accepted TCP connection: HTTP/1.1 served by Hummingbird's router, or upgraded to a
/// WebSocket served on the connection's event loop.
///
/// Hummingbird's own WebSocket channel keeps a task per connection for as long as the
/// socket is open (its stack, an async channel and a task group: over half of an idle
/// connection's memory). Here the upgrade installs `WebSocketProtocolHandler` and the
/// connection's task ends: a WebSocket lives in its channel's pipeline.
struct GameServerChannel: ServerChildChannel, HTTPChannelHandler {
    /// What an upgrade request is upgraded to.
    enum Route: Sendable, Equatable {
        /// The game, for a client at this address (behind a trusted proxy: `ForwardedFor`);
        /// `node`: the `?node=` the client asked for (the node it last found its room on).
        case game(clientIP: String, node: String? = nil)
        case conformanceEcho
    }

    enum UpgradeResult: Sendable {
        /// A WebSocket, now served by its pipeline.
        case upgraded
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade that was refused; answered here with 400 unless its refusal was sent
        /// already, or with what its handshake headers call for.
        case failedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, HandshakeCheck.Problem?)
    }

    struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    /// Decides an upgrade request on the connection's event loop: where it goes, or nil to
    /// refuse it (having written its own refusal, or leaving it to the 400).
    let route: @Sendable (HTTPRequestHead, any Channel) -> Route?
    /// The `Sec-WebSocket-Extensions` response, if any, for an accepted request's offers.
    let negotiateExtensions: @Sendable (HTTPHeaders) -> String?
    /// Sets up the upgraded connection's pipeline, on its event loop; `deflate` is whether
    /// permessage-deflate was agreed.
    let serve: @Sendable (Route, _ deflate: Bool, any Channel) throws -> Void
    /// The request-head limits (`RequestHeadGuard`): a connection whose request head is too
    /// large, malformed or late is answered and closed at once. A connection that never
    /// sends a whole first request would otherwise stay open for as long as the peer likes,
    /// and hold up the server's shutdown, which waits for every connection.
    let headGuard: RequestHeadGuard.Configuration
    /// The clock of the header timeout.
    let clock: ServerClock
    let misdirectedTLS: MisdirectedTLSLog
    let http1: HTTP1Channel.Configuration

    init(
        responder: @escaping HTTPChannelHandler.Responder,
        route: @escaping @Sendable (HTTPRequestHead, any Channel) -> Route?,
        negotiateExtensions: @escaping @Sendable (HTTPHeaders) -> String?,
        serve: @escaping @Sendable (Route, Bool, any Channel) throws -> Void,
        headGuard: RequestHeadGuard.Configuration = .init(),
        clock: ServerClock = ServerClock(),
        misdirectedTLS: MisdirectedTLSLog = MisdirectedTLSLog(),
        idleTimeout: Duration = .seconds(60)
    ) {
        self.http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(idleTimeout))
        self.responder = Self.upgradeRedirectingResponder(responder)
        self.route = route
        self.negotiateExtensions = negotiateExtensions
        self.serve = serve
        self.headGuard = headGuard
        self.clock = clock
        self.misdirectedTLS = misdirectedTLS
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let upgradeAttempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            // Decided once: deciding spends the address's connection budget.
            let decided = NIOLoopBoundBox<Route?>(nil, eventLoop: channel.eventLoop)
            let guardHandler = RequestHeadGuardHandler(
                configuration: headGuard,
                schedule: { [clock] delay, loop, body in clock.timer(after: delay, on: loop, body).cancel },
                onMisdirectedTLS: { [clock, misdirectedTLS, logger] address in
                    guard misdirectedTLS.shouldLog(address, now: clock.now) else { return }
                    logger.warning("a client spoke TLS to the plain HTTP port (https:// pointed at it?); closed", metadata: ["address": "\(address)"])
                },
                logger: logger
            )
            let tap = guardHandler.makeTap()
            let guards = NIOLoopBound((guardHandler, tap), eventLoop: channel.eventLoop)
            let upgrader = WebSocketUpgrader<UpgradeResult>(
                shouldUpgrade: { [route, negotiateExtensions] channel, head in
                    upgradeAttempted.value = true
                    decided.value = route(head, channel)
                    guard decided.value != nil else { return channel.eventLoop.makeSucceededFuture(nil) }
                    var headers = HTTPHeaders()
                    if let extensions = negotiateExtensions(head.headers) {
                        headers.add(name: "Sec-WebSocket-Extensions", value: extensions)
                    }
                    return channel.eventLoop.makeSucceededFuture(headers)
                },
                upgradePipelineHandler: { [negotiateExtensions, serve] channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        guard let target = decided.value else { throw ChannelError.inappropriateOperationForState }
                        // A WebSocket's bytes are not HTTP: the guard leaves before its
                        // handlers come, whose first write may be a refusal's close frame (the
                        // tap takes only HTTP parts). Both leave at once: neither delays removal.
                        channel.pipeline.syncOperations.removeHandler(guards.value.0, promise: nil)
                        channel.pipeline.syncOperations.removeHandler(guards.value.1, promise: nil)
                        try serve(target, negotiateExtensions(head.headers) != nil, channel)
                        return .upgraded
                    }
                }
            )
            let http1 = self.http1
            let handshakeCheck = HandshakeCheck()
            let checked = NIOLoopBound(handshakeCheck, eventLoop: channel.eventLoop)
            let configuration = NIOTypedHTTPServerUpgradeConfiguration<UpgradeResult>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let problem = checked.value.problem
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try channel.pipeline.syncOperations.addHandlers(http1.additionalChannelHandlers())
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { .init($0) }, logger: logger)
                        )
                        let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true)
                        )
                        return upgradeAttempted.value || problem != nil ? .failedUpgrade(asyncChannel, problem) : .notUpgraded(asyncChannel)
                    }
                }
            )
            var pipeline = NIOUpgradableHTTPServerPipelineConfiguration<UpgradeResult>(upgradeConfiguration: configuration)
            pipeline.enablePipelining = false  // pipelining is handled by NIOAsyncChannel
            pipeline.enableErrorHandling = false  // Hummingbird handles errors
            pipeline.enableResponseHeaderValidation = false  // HTTPTypes validates
            pipeline.decoderConfiguration = headGuard.decoderLimits
            pipeline.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let result = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: pipeline)
            let upgradeHandler = try channel.pipeline.syncOperations.handler(type: NIOTypedHTTPServerUpgradeHandler<UpgradeResult>.self)
            try channel.pipeline.syncOperations.addHandler(tap, position: .before(upgradeHandler))
            try channel.pipeline.syncOperations.addHandler(handshakeCheck, position: .before(upgradeHandler))
            try channel.pipeline.syncOperations.addHandler(guardHandler, position: .first)
            result.whenComplete { _ in
                // Upgraded or not, the first request is past: no later byte should pay its hop.
                channel.pipeline.syncOperations.removeHandler(checked.value, promise: nil)
            }
            return Value(upgradeResult: result, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgradeResult.get() {
            case .upgraded:
                // The pipeline serves the WebSocket from here on; this task is done.
                return
            case .notUpgraded(let http1):
                await handleHTTP(asyncChannel: http1, logger: logger)
            case .failedUpgrade(let http1, let problem):
                await Self.refuseUpgrade(http1, problem: problem, logger: logger)
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("upgrade failed: input closed")
        } catch {
            logger.debug("upgrade failed", metadata: ["error": "\(error)"])
        }
    }

    /// A bare 400 for a refused upgrade (whose own refusal, if any, went out first and
    /// closed the connection), or 426 naming the version spoken here.
    private static func refuseUpgrade(
        _ asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, problem: HandshakeCheck.Problem?, logger: Logger
    ) async {
        var head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
        if problem == .unsupportedVersion {
            head.status = .upgradeRequired
            head.headerFields[.secWebSocketVersion] = "13"
        }
        do {
            try await asyncChannel.executeThenClose { _, outbound in
                try await outbound.write(contentsOf: [.head(head), .end(nil)])
            }
        } catch {
            logger.trace("refused upgrade: \(error)")
        }
    }

    /// NIO only upgrades a connection's first request: a later request asking for an
    /// upgrade is redirected to the same URI and the connection closed, so the client
    /// retries on a fresh connection.
    private static func upgradeRedirectingResponder(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        struct RedirectCloseError: Error {}
        return { request, responseWriter, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                return try await responder(request, responseWriter, channel)
            }
            var path = request.uri.path
            if let query = request.uri.query { path += "?\(query)" }
            try await responseWriter.writeResponse(HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: path]))
            throw RedirectCloseError()
        }
    }
}
