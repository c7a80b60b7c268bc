import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// A connection writer's sink in production: encoded frames go to the socket through the
/// connection's `ConnectionHandler`, and the close handshake goes through the WebSocket
/// layer, which then waits for the peer's answer.
struct ChannelSink: ConnectionWriter.Sink {
    let handler: NIOLoopBound<ConnectionHandler>
    let channel: any Channel
    let outbound: WebSocketOutboundWriter

    var eventLoop: any EventLoop { handler.eventLoop }
    var isWritable: Bool { channel.isWritable }

    func write(_ frame: WireFrame) {
        handler.value.write(frame)
    }

    func flush() {
        handler.value.flush()
    }

    func close(_ close: Outbox.Close) {
        let (outbound, channel) = (self.outbound, self.channel)
        // The close frame is queued behind what this drain just flushed, on the same loop.
        Task {
            try? await outbound.close(WebSocketErrorCode(codeNumber: Int(close.code)), reason: close.reason)
            guard close.waitsForAnswer else {
                // The server closes first (RFC 6455 section 7.1.1): the close frame goes out
                // before the FIN, and nothing more is read from the abuser.
                channel.close(promise: nil)
                return
            }
            // A peer that never answers the close handshake is cut off.
            try? await Task.sleep(for: .seconds(3))
            channel.closeAbortively()
        }
    }
}
