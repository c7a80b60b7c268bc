import NIOCore

/// Answers a refused WebSocket upgrade with a real status (403, 429, 503) and closes.
///
/// The upgrade path answers every refused upgrade with a bare 400 (`GameServerChannel`), so the refusal
/// is written straight to the socket from a handler placed at the front of the pipeline,
/// before the upgrade machinery writes its own answer (which then meets a closed channel).
enum HTTPRefusal {
    static func send(status: Int, reason: String, to channel: any Channel) {
        let body = "\(reason)\n"
        let text = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        channel.eventLoop.execute {
            let writer = RawWriter()
            guard (try? channel.pipeline.syncOperations.addHandler(writer, position: .first)) != nil,
                  let context = try? channel.pipeline.syncOperations.context(handler: writer) else {
                channel.close(promise: nil)
                return
            }
            context.writeAndFlush(NIOAny(ByteBuffer(string: text))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }

    /// Passes raw bytes to the socket; nothing else goes through it.
    final class RawWriter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = ByteBuffer
    }
}
