import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The replay client's WebSocket upgrade: NIO's client upgrader checks the handshake
/// (`Sec-WebSocket-Key` and `Sec-WebSocket-Accept`), and `installHandlers` sets up the
/// connection's own frame handling instead of NIO's frame decoder.
final class ReplayUpgrader: NIOHTTPClientProtocolUpgrader, Sendable {
    private let handshake: NIOWebSocketClientUpgrader
    private let installHandlers: @Sendable (any Channel) throws -> Void

    /// - Parameter installHandlers: called on the event loop once the server agreed, with
    ///   the HTTP handlers gone; bytes read after the handshake reach the handlers it adds.
    init(installHandlers: @escaping @Sendable (any Channel) throws -> Void) {
        self.installHandlers = installHandlers
        self.handshake = NIOWebSocketClientUpgrader(automaticErrorHandling: false) { channel, _ in
            channel.eventLoop.makeSucceededVoidFuture()
        }
    }

    var supportedProtocol: String { handshake.supportedProtocol }
    var requiredUpgradeHeaders: [String] { handshake.requiredUpgradeHeaders }

    func addCustom(upgradeRequestHeaders: inout HTTPHeaders) {
        handshake.addCustom(upgradeRequestHeaders: &upgradeRequestHeaders)
    }

    func shouldAllowUpgrade(upgradeResponse: HTTPResponseHead) -> Bool {
        handshake.shouldAllowUpgrade(upgradeResponse: upgradeResponse)
    }

    func upgrade(context: ChannelHandlerContext, upgradeResponse: HTTPResponseHead) -> EventLoopFuture<Void> {
        let channel = context.channel
        return context.eventLoop.makeCompletedFuture { try self.installHandlers(channel) }
    }
}
