import NIOCore

/// At the front of a game connection's pipeline, next to the socket: notes when the peer
/// last sent anything (data, a pong, a ping), so the heartbeat can tell a silent or
/// black-holed client; resumes the writer when the socket becomes writable again; and
/// writes the writer's encoded frames straight to the socket, past the WebSocket encoder
/// and every other handler, since they are already on-the-wire bytes.
///
/// Lives on the connection's event loop (reach it through `NIOLoopBound`).
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    let activity: ActivityMonitor
    /// Set once the writer exists.
    var writer: ConnectionWriter?
    private var context: ChannelHandlerContext?

    init(activity: ActivityMonitor) {
        self.activity = activity
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// The channel closed: the writer goes too (it holds this handler through its sink).
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        writer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        activity.touch()
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { writer?.drain() }
        context.fireChannelWritabilityChanged()
    }

    /// Writes a frame's bytes to the socket, unflushed.
    func write(_ frame: WireFrame) {
        context?.write(NIOAny(frame.bytes), promise: nil)
    }

    func flush() {
        context?.flush()
    }
}
