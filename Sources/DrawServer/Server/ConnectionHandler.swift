import NIOCore

/// At the front of a game connection's pipeline: notes when the peer last sent anything
/// (data, a pong, a ping), so the heartbeat can tell a silent or black-holed client, and
/// resumes the writer when the socket becomes writable again.
final class ConnectionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    let activity: ActivityMonitor
    let writer: ConnectionWriter

    init(activity: ActivityMonitor, writer: ConnectionWriter) {
        self.activity = activity
        self.writer = writer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        activity.touch()
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { writer.drain() }
        context.fireChannelWritabilityChanged()
    }
}
