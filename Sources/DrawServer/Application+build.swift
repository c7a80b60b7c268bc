import CoreMetrics
import DrawProtocol
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOHTTP1
import Logging
import NIOCore
import Rooms
import ServiceLifecycle

/// Builds the drawserver HTTP + WebSocket application around a runtime. Used by
/// `drawserver serve` and by the tests, which run it in-process.
func buildApplication(
    runtime: DrawServerRuntime,
    services: [any Service] = [],
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let configuration = runtime.configuration
    let server = runtime.server
    let logger = runtime.logger

    let router = Router(context: DrawRequestContext.self)
    router.get("/healthz") { _, _ in "ok" }
    router.get("/readyz") { _, _ -> Response in
        let answer = runtime.readiness.answer(storageFault: runtime.storageReport?.fault, saturated: runtime.server.admission.isSaturated)
        return DrawServerRuntime.response(Array(answer.text.utf8), contentType: "text/plain", status: answer.ready ? .ok : .serviceUnavailable)
    }
    router.get("/metrics") { _, _ -> Response in
        runtime.updateGauges()
        return DrawServerRuntime.response(runtime.metrics.exposition(), contentType: "text/plain; version=0.0.4")
    }
    // Reached only when a /ws request was not upgraded: say why.
    router.get("/ws") { request, context -> Response in
        let status = runtime.upgradeRefusal(request, context: context, spendingConnection: false) ?? .upgradeRequired
        return DrawServerRuntime.response(Array("WebSocket upgrade refused (\(status.code))".utf8), contentType: "text/plain", status: status)
    }
    // Public: the word-list languages a room may pick, for the client's settings.
    let languages = WordLanguage.catalogJSON()
    router.get("/api/languages") { _, _ -> Response in
        DrawServerRuntime.response(languages, contentType: "application/json")
    }
    runtime.addModeratorRoutes(to: router)
    runtime.addHealthRoute(to: router)
    runtime.addDrawingRoutes(to: router)
    runtime.addGalleryRoutes(to: router)
    runtime.addTVRoutes(to: router)
    runtime.addReportRoutes(to: router)
    runtime.addGalleryReportRoute(to: router)
    if let webRoot = configuration.webRoot {
        router.add(middleware: FileMiddleware(webRoot, searchForIndexHtml: true, logger: logger))
    }

    // Each route's `WebSocketReceiver` enforces its own frame and message limit: the echo
    // route's is big enough for the testsuite's messages.
    let limits = configuration.limits
    let webSocketServer = HTTPServerBuilder { responder in
        GameServerChannel(
            responder: responder,
            route: { head, channel in runtime.webSocketRoute(head, channel: channel) },
            negotiateExtensions: { headers in
                limits.permessageDeflate ? PerMessageDeflateOffer.response(to: headers[canonicalForm: "sec-websocket-extensions"].map(String.init)) : nil
            },
            serve: { route, deflate, channel in
                switch route {
                case .game(let clientIP, let node):
                    try server.acceptWebSocket(channel: channel, deflate: deflate, clientIP: clientIP, askedNode: node)
                case .conformanceEcho:
                    let receiver = WebSocketReceiver(maxMessageBytes: limits.conformanceMaxMessageBytes, deflate: deflate)
                    try channel.pipeline.syncOperations.addHandler(WebSocketProtocolHandler(receiver: receiver, service: ConformanceEcho()))
                }
            },
            headGuard: limits.requestHead,
            clock: server.clock,
            misdirectedTLS: MisdirectedTLSLog(),
            idleTimeout: limits.httpIdleTimeout
        )
    }
    return Application(
        router: router,
        server: webSocketServer,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "drawserver"),
        services: services,
        onServerRunning: { channel in
            runtime.serverListening(channel)
            await onServerRunning(channel)
        },
        eventLoopGroupProvider: .shared(runtime.eventLoopGroup),
        logger: logger
    )
}

extension DrawServerRuntime {
    /// Why a WebSocket upgrade must be refused, or nil to accept it. An accepted upgrade
    /// spends one of the address's new connections unless `spendingConnection` is false.
    func upgradeRefusal(_ request: Request, context: DrawRequestContext, spendingConnection: Bool = true) -> HTTPResponse.Status? {
        let ip = configuration.forwardedFor.clientIP(peer: context.remoteIP, headerValues: request.headers.filter { $0.name.canonicalName == ForwardedFor.header }.map(\.value))
        return upgradeRefusal(origin: request.headers[.origin], remoteIP: ip, spendingConnection: spendingConnection)
    }

    func upgradeRefusal(origin: String?, remoteIP: String, spendingConnection: Bool = true) -> HTTPResponse.Status? {
        guard readiness.isReady else { return .serviceUnavailable }
        // Browsers always send Origin; other clients may not, and are not refused for it.
        if let allowed = configuration.limits.allowedOrigins, let origin, !allowed.contains(origin) {
            return .forbidden
        }
        if spendingConnection, !server.admitUpgrade(from: remoteIP) { return .tooManyRequests }
        return nil
    }

    /// Where a WebSocket upgrade request goes, on its connection's event loop, or nil to
    /// refuse it: a refused `/ws` upgrade is answered with its status (403, 429, 503).
    func webSocketRoute(_ head: HTTPRequestHead, channel: any Channel) -> GameServerChannel.Route? {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        switch path {
        case "/ws":
            let peer = channel.remoteAddress?.ipAddress ?? "unknown"
            let ip = configuration.forwardedFor.clientIP(peer: peer, headerValues: head.headers[ForwardedFor.header])
            guard let refusal = upgradeRefusal(origin: head.headers.first(name: "origin"), remoteIP: ip) else {
                return .game(clientIP: ip, node: URI(head.uri).queryParameters["node"].map(String.init))
            }
            if refusal != .serviceUnavailable {
                // The client's own address (behind a trusted proxy: the forwarded one); debug
                // level, as a flood of refusals must not flood the log.
                logger.debug("WebSocket upgrade refused", metadata: ["status": "\(refusal.code)", "address": "\(ip)"])
            }
            HTTPRefusal.send(status: refusal.code, reason: refusal.reasonPhrase, to: channel)
            return nil
        case "/conformance/echo" where configuration.limits.conformanceEcho:
            return .conformanceEcho
        default:
            return nil
        }
    }

    /// Gauges that are cheaper to compute when scraped than to keep up to date.
    func updateGauges() {
        let (rooms, online) = server.withLobby { lobby in
            (lobby.rooms.values.map(\.phase), lobby.players.values.count(where: \.isOnline))
        }
        for phase in GamePhase.allCases {
            metrics.roomsByPhase[phase]?.record(rooms.count(where: { $0 == phase }))
        }
        metrics.players.record(online)
        metrics.storageFailing.record(storageReport?.fault == nil ? 0 : 1)
        metrics.connections.record(server.connectionCount)
    }
}
