import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Upgrades a request to a WebSocket served by this server's own frame layer.
///
/// The handshake (checking the key and version, answering with `Sec-WebSocket-Accept`) is
/// NIO's `NIOTypedWebSocketServerUpgrader`'s. Its upgrade step is not used: it would add
/// NIO's frame decoder and protocol error handler in front of `WebSocketProtocolHandler`,
/// which parses the frames itself. Only NIO's frame encoder is added, for the few frames the
/// protocol layer writes (pongs, close frames, the conformance echo); the game's frames go
/// to the socket already encoded.
struct WebSocketUpgrader<UpgradeResult: Sendable>: NIOTypedHTTPServerProtocolUpgrader {
    private let handshake: NIOTypedWebSocketServerUpgrader<UpgradeResult>
    private let upgradePipelineHandler: @Sendable (any Channel, HTTPRequestHead) -> EventLoopFuture<UpgradeResult>

    /// - Parameters:
    ///   - shouldUpgrade: the extra response headers for a request to accept, or nil to refuse it.
    ///   - upgradePipelineHandler: adds the connection's handlers, once the response is out.
    init(
        shouldUpgrade: @escaping @Sendable (any Channel, HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?>,
        upgradePipelineHandler: @escaping @Sendable (any Channel, HTTPRequestHead) -> EventLoopFuture<UpgradeResult>
    ) {
        // NIO's upgrader needs an upgrade step of its own, and this is the one it would run
        // if it were asked; `upgrade` below is what runs.
        handshake = NIOTypedWebSocketServerUpgrader(shouldUpgrade: shouldUpgrade, upgradePipelineHandler: upgradePipelineHandler)
        self.upgradePipelineHandler = upgradePipelineHandler
    }

    var supportedProtocol: String { handshake.supportedProtocol }

    var requiredUpgradeHeaders: [String] { handshake.requiredUpgradeHeaders }

    func buildUpgradeResponse(channel: any Channel, upgradeRequest: HTTPRequestHead, initialResponseHeaders: HTTPHeaders) -> EventLoopFuture<HTTPHeaders> {
        handshake.buildUpgradeResponse(channel: channel, upgradeRequest: upgradeRequest, initialResponseHeaders: initialResponseHeaders)
    }

    func upgrade(channel: any Channel, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<UpgradeResult> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        }.flatMap {
            upgradePipelineHandler(channel, upgradeRequest)
        }
    }
}
