import CompressNIO
import HummingbirdWSCompression
import NIOWebSocket
import WSCore

/// permessage-deflate whose "inflated past the limit" closes with 1009 (message too big),
/// as the protocol asks, instead of the library's generic 1011.
struct InflateLimitExtensionBuilder: WebSocketExtensionBuilder {
    static var name: String { "permessage-deflate" }
    let base: any WebSocketExtensionBuilder

    /// permessage-deflate with a limit on the inflated size of a message.
    static func factory(maxDecompressedFrameSize: Int) -> WebSocketExtensionFactory {
        let deflate = WebSocketExtensionFactory.perMessageDeflate(maxDecompressedFrameSize: maxDecompressedFrameSize)
        return WebSocketExtensionFactory { InflateLimitExtensionBuilder(base: deflate.build()) }
    }

    func clientRequestHeader() -> String { base.clientRequestHeader() }

    func serverReponseHeader(to request: WebSocketExtensionHTTPParameters) -> String? {
        base.serverReponseHeader(to: request)
    }

    func serverExtension(from request: WebSocketExtensionHTTPParameters) throws -> (any WebSocketExtension)? {
        try base.serverExtension(from: request).map { InflateLimitExtension(base: $0) }
    }

    func clientExtension(from response: WebSocketExtensionHTTPParameters) throws -> (any WebSocketExtension)? {
        try base.clientExtension(from: response).map { InflateLimitExtension(base: $0) }
    }
}

struct InflateLimitExtension: WebSocketExtension {
    let base: any WebSocketExtension

    var name: String { base.name }
    var reservedBits: WebSocketFrame.ReservedBits { base.reservedBits }

    func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
        do {
            return try await base.processReceivedFrame(frame, context: context)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            // The WebSocket layer closes with 1009 for this error.
            throw NIOWebSocketError.invalidFrameLength
        }
    }

    func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
        try await base.processFrameToSend(frame, context: context)
    }

    func shutdown() async { await base.shutdown() }
}
