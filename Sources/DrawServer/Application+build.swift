import CoreMetrics
import Hummingbird
import HummingbirdWebSocket
import HummingbirdWSCompression
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
        let state = runtime.readiness.state
        let body = state == .ready ? "ready" : state == .starting ? "starting" : "draining"
        return DrawServerRuntime.response(Array(body.utf8), contentType: "text/plain", status: state == .ready ? .ok : .serviceUnavailable)
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
    runtime.addModeratorRoutes(to: router)
    if let webRoot = configuration.webRoot {
        router.add(middleware: FileMiddleware(webRoot, searchForIndexHtml: true, logger: logger))
    }

    let webSocketRouter = Router(context: DrawRequestContext.self)
    webSocketRouter.ws("/ws", shouldUpgrade: { request, context in
        guard let refusal = runtime.upgradeRefusal(request, context: context) else {
            // Nothing is read from the WebSocket until its connection has set up its pipeline
            // (serveWebSocket), so that every frame passes `DrawingFastPath`, which keeps
            // drawing frames in order with the messages before them.
            try await context.channel.setOption(ChannelOptions.autoRead, value: false).get()
            return .upgrade([:])
        }
        HTTPRefusal.send(status: refusal.code, reason: refusal.reasonPhrase, to: context.channel)
        return .dontUpgrade
    }) { inbound, outbound, context in
        try await server.serveWebSocket(inbound: inbound, outbound: outbound, channel: context.requestContext.channel)
    }
    if configuration.limits.conformanceEcho {
        let maxSize = configuration.limits.conformanceMaxMessageBytes
        webSocketRouter.ws("/conformance/echo") { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: maxSize) {
                switch message {
                case .text(let text): try await outbound.write(.text(text))
                case .binary(let buffer): try await outbound.write(.binary(buffer))
                }
            }
        }
    }

    let limits = configuration.limits
    let maxMessage = max(limits.maxBinaryFrameBytes, limits.maxTextFrameBytes)
    // The echo route needs room for the testsuite's big messages; /ws still enforces its
    // own limit per message (see ClientSession).
    let maxFrame = limits.conformanceEcho ? max(maxMessage, limits.conformanceMaxMessageBytes) : maxMessage
    let webSocket = WebSocketServerConfiguration(
        maxFrameSize: maxFrame,
        extensions: limits.permessageDeflate ? [InflateLimitExtensionBuilder.factory(maxDecompressedFrameSize: maxFrame)] : [],
        // The session's own heartbeat pings (interval and timeout configurable).
        autoPing: .disabled,
        validateUTF8: true
    )
    return Application(
        router: router,
        server: .http1WebSocketUpgrade(webSocketRouter: webSocketRouter, configuration: .init(ws: webSocket)),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "drawserver"),
        services: services,
        onServerRunning: onServerRunning,
        eventLoopGroupProvider: .shared(runtime.eventLoopGroup),
        logger: logger
    )
}

extension DrawServerRuntime {
    /// Why a WebSocket upgrade must be refused, or nil to accept it. An accepted upgrade
    /// spends one of the address's new connections unless `spendingConnection` is false.
    func upgradeRefusal(_ request: Request, context: DrawRequestContext, spendingConnection: Bool = true) -> HTTPResponse.Status? {
        guard readiness.isReady else { return .serviceUnavailable }
        // Browsers always send Origin; other clients may not, and are not refused for it.
        if let allowed = configuration.limits.allowedOrigins, let origin = request.headers[.origin], !allowed.contains(origin) {
            return .forbidden
        }
        if spendingConnection, !server.admitUpgrade(from: context.remoteIP) { return .tooManyRequests }
        return nil
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
        metrics.connections.record(server.connectionCount)
    }
}
