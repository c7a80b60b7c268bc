import NIOCore
import NIOHTTP1

/// Looks at a connection's first request on its way to NIO's upgrade handler and notes a
/// WebSocket upgrade that handler will refuse for its handshake headers, so the refusal
/// gets an answer (RFC 6455 section 4.2.2) instead of a silently closed connection: 400
/// for a missing or repeated `Sec-WebSocket-Key`, 426 with the version the server speaks
/// for any `Sec-WebSocket-Version` other than 13.
final class HandshakeCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    enum Problem: Sendable, Equatable {
        case badKey
        case unsupportedVersion
    }

    /// Set when the first request is a WebSocket upgrade with bad handshake headers.
    private(set) var problem: Problem?
    private var sawFirstHead = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !sawFirstHead, case .head(let head) = unwrapInboundIn(data) {
            sawFirstHead = true
            problem = Self.problem(with: head.headers)
        }
        context.fireChannelRead(data)
    }

    /// The same checks as NIO's WebSocket upgrader, for a request that asks for one.
    static func problem(with headers: HTTPHeaders) -> Problem? {
        let asksForWebSocket = headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
            && headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
        guard asksForWebSocket else { return nil }
        let versions = headers["Sec-WebSocket-Version"]
        guard versions.count == 1, versions[0] == "13" else { return .unsupportedVersion }
        guard headers["Sec-WebSocket-Key"].count == 1 else { return .badKey }
        return nil
    }
}
