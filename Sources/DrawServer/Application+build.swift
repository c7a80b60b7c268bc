import Hummingbird
import HummingbirdWebSocket
import HummingbirdWSCompression
import Logging
import NIOCore
import Rooms

/// Builds the drawserver HTTP + WebSocket application. Used by `drawserver serve` and by
/// the tests, which run it in-process.
func buildApplication(
    configuration: ServerConfiguration,
    logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let server = GameServer(configuration: configuration, logger: logger)

    let router = Router(context: DrawRequestContext.self)
    router.get("/healthz") { _, _ in "ok" }
    if let webRoot = configuration.webRoot {
        router.add(middleware: FileMiddleware(webRoot, searchForIndexHtml: true, logger: logger))
    }

    let webSocketRouter = Router(context: DrawRequestContext.self)
    webSocketRouter.ws("/ws") { inbound, outbound, context in
        try await server.serveWebSocket(inbound: inbound, outbound: outbound, channel: context.requestContext.channel)
    }

    let limits = configuration.limits
    let maxMessage = max(limits.maxBinaryFrameBytes, limits.maxTextFrameBytes)
    let webSocket = WebSocketServerConfiguration(
        maxFrameSize: maxMessage,
        extensions: limits.permessageDeflate ? [.perMessageDeflate(maxDecompressedFrameSize: maxMessage)] : [],
        autoPing: .enabled(timePeriod: .seconds(20)),
        validateUTF8: true
    )
    return Application(
        router: router,
        server: .http1WebSocketUpgrade(webSocketRouter: webSocketRouter, configuration: .init(ws: webSocket)),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "drawserver"),
        onServerRunning: onServerRunning,
        logger: logger
    )
}
