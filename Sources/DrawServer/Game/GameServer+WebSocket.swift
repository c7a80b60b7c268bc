import CoreMetrics
import DrawProtocol
import NIOCore
import NIOWebSocket

extension GameServer {
    /// Sets up a just-upgraded `/ws` connection, on its event loop, before anything is read
    /// from it: its session and output, its timers, and its pipeline. From here the
    /// connection is served by its handlers; no task waits on it.
    /// `clientIP` is the address per-address limits count it under (the peer's, unless a
    /// trusted proxy forwarded it).
    /// `askedNode`: the node the client asked for in `?node=`.
    func acceptWebSocket(channel: any Channel, deflate: Bool, clientIP: String? = nil, askedNode: String? = nil) throws {
        let limits = configuration.limits
        let maxMessageBytes = limits.maxBinaryFrameBytes
        let eventLoop = channel.eventLoop
        let sync = channel.pipeline.syncOperations
        let hardClose: @Sendable () -> Void = { channel.closeAbortively() }
        let overflows = metrics.queueOverflows
        let delivery = loopDeliveries.delivery(for: eventLoop)
        let outbox = Outbox(
            limit: limits.outboundQueueBytes, maxFrameSize: maxMessageBytes, delivery: delivery,
            hardClose: hardClose, onOverflow: { overflows.increment() }
        )
        let ip = clientIP ?? channel.remoteAddress?.ipAddress ?? "unknown"
        let session = GameSession(server: self, outbox: outbox, remoteIP: ip, eventLoop: eventLoop, askedNode: askedNode)
        let receiver = WebSocketReceiver(maxMessageBytes: max(maxMessageBytes, limits.maxTextFrameBytes), deflate: deflate)

        let admission = register(session.connection, outbox: outbox, ip: ip)
        guard admission != .tooManyFromAddress else {
            // Not registered, so there is no session to end: just the close handshake.
            let refused = WebSocketProtocolHandler(receiver: receiver, service: RefusedConnection())
            try sync.addHandler(refused)
            refused.close(code: .policyViolation, reason: "too many connections from your address", waitForAnswer: false)
            return
        }
        let activity = ActivityMonitor(clock: delivery.clock)
        activity.touch()
        let connection = session.connection
        let timers = ConnectionTimers(
            eventLoop: eventLoop, limits: limits, outbox: outbox, activity: activity,
            // Strong, like the session's own reference: a weak one would give the server a
            // side table, and every retain of it would take the slow path.
            hasSaidHello: { self.hasSaidHello(connection) }, hardClose: hardClose
        )
        session.timers = timers
        let webSocket = WebSocketProtocolHandler(receiver: receiver, service: session, activity: activity)
        let handler = SocketHandler(activity: activity, eventLoop: eventLoop)
        do {
            try sync.addHandler(handler, position: .first)
            try sync.addHandler(webSocket)
        } catch {
            // The channel is usually closed already when this happens.
            session.connectionClosed()
            throw error
        }
        handler.webSocket = webSocket
        handler.poller = readPollers?.poller(for: eventLoop)
        handler.output = outbox.output
        if admission == .draining {
            // Upgraded just as the drain began: treated like every other connection of the drain.
            outbox.close(code: .serviceRestart, reason: DrawServerRuntime.restartReason)
        }
    }
}

/// A connection refused right after its upgrade: only its close handshake is left.
final class RefusedConnection: WebSocketService {
    func received(_ message: WebSocketReceiver.Message, on connection: WebSocketProtocolHandler) -> WebSocketDisposition { .handled }
    func closeSent() {}
    func connectionClosed() {}
}

/// The conformance testsuite's echo (`--conformance-echo`): every message back as it came.
final class ConformanceEcho: WebSocketService {
    func received(_ message: WebSocketReceiver.Message, on connection: WebSocketProtocolHandler) -> WebSocketDisposition {
        switch message {
        case .text(let payload): connection.write(WebSocketFrame(fin: true, opcode: .text, data: payload))
        case .binary(let payload): connection.write(WebSocketFrame(fin: true, opcode: .binary, data: payload))
        }
        return .handled
    }

    func closeSent() {}
    func connectionClosed() {}
}
