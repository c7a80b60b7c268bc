import NIOCore

/// At the front of a game connection's pipeline, next to the socket: notes when the peer
/// last sent anything (data, a pong, a ping), so the heartbeat can tell a silent or
/// black-holed client; keeps the channel's writability and resumes the writer when the
/// socket becomes writable again; writes the writer's encoded frames straight to the
/// socket, past the WebSocket encoder and every other handler, since they are already
/// on-the-wire bytes; and finishes the outbox when the channel goes. It is the writer's
/// sink: the close handshake goes through the connection's `WebSocketConnectionHandler`.
///
/// Lives on the connection's event loop; its writer uses it only there, in `drain`.
final class ConnectionHandler: ChannelInboundHandler, ConnectionWriter.Sink {
    typealias InboundIn = NIOAny

    let activity: ActivityMonitor
    let eventLoop: any EventLoop
    /// Set once the writer exists.
    var writer: ConnectionWriter?
    /// Set with the writer; sends the close handshake.
    var webSocket: WebSocketConnectionHandler?
    /// The channel's writability, kept here because every drain asks for it: reading the
    /// channel's own flag costs a call through its protocol and a visit to another object.
    private(set) var isWritable = true
    private var context: ChannelHandlerContext?

    init(activity: ActivityMonitor, eventLoop: any EventLoop) {
        self.activity = activity
        self.eventLoop = eventLoop
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        isWritable = context.channel.isWritable
    }

    /// The channel closed: the outbox is finished, so it lets go of the writer, and the
    /// writer goes too (it holds this handler through its sink).
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        isWritable = false
        writer?.outbox.finish()
        writer = nil
        webSocket = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        activity.touch()
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable { writer?.drain() }
        context.fireChannelWritabilityChanged()
    }

    /// Writes a frame's bytes to the socket, flushing the batch with its last frame.
    func write(_ frame: WireFrame, flush: Bool) {
        guard let context else { return }
        if flush {
            context.writeAndFlush(NIOAny(frame.bytes), promise: nil)
        } else {
            context.write(NIOAny(frame.bytes), promise: nil)
        }
    }

    func close(_ close: Outbox.Close) {
        // Queued behind what this drain just flushed, on the same loop. Without waiting for
        // the answer (after abuse) the server closes first (RFC 6455 section 7.1.1): the
        // close frame goes out before the FIN, and nothing more is read from the abuser.
        webSocket?.close(code: close.code, reason: close.reason, waitForAnswer: close.waitsForAnswer)
    }
}
