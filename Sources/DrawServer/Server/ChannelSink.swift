import NIOCore

/// A connection writer's sink in production: encoded frames go to the socket through the
/// connection's `ConnectionHandler`, and the close handshake through its
/// `WebSocketConnectionHandler`, which then waits for the peer's answer.
struct ChannelSink: ConnectionWriter.Sink {
    let handler: NIOLoopBound<ConnectionHandler>
    let webSocket: NIOLoopBound<WebSocketConnectionHandler>
    let channel: any Channel

    var eventLoop: any EventLoop { handler.eventLoop }
    var isWritable: Bool { channel.isWritable }

    func write(_ frame: WireFrame) {
        handler.value.write(frame)
    }

    func flush() {
        handler.value.flush()
    }

    func close(_ close: Outbox.Close) {
        // Queued behind what this drain just flushed, on the same loop. Without waiting for
        // the answer (after abuse) the server closes first (RFC 6455 section 7.1.1): the
        // close frame goes out before the FIN, and nothing more is read from the abuser.
        webSocket.value.close(code: close.code, reason: close.reason, waitForAnswer: close.waitsForAnswer)
    }
}
