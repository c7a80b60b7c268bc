import CoreMetrics
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Rooms

extension GameServer {
    /// Serves one `/ws` connection until it closes. This task only reads and dispatches
    /// messages; frames out are written by the connection's `ConnectionWriter` on its event
    /// loop, and the hello deadline and heartbeat are event-loop timers.
    ///
    /// Errors from the inbound stream (invalid UTF-8, a protocol violation) are rethrown
    /// after clean-up so the WebSocket layer closes with the matching code (1007, 1002).
    func serveWebSocket(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel) async throws {
        // Single values rather than a copy of `configuration.limits`: this frame lives as long
        // as the connection.
        let maxMessageBytes = configuration.limits.maxBinaryFrameBytes
        let hardClose: @Sendable () -> Void = { channel.closeAbortively() }
        let overflows = metrics.queueOverflows
        let outbox = Outbox(limit: configuration.limits.outboundQueueBytes, hardClose: hardClose, onOverflow: { overflows.increment() })
        let ip = channel.remoteAddress?.ipAddress ?? "unknown"
        let session = ClientSession(server: self, outbox: outbox, remoteIP: ip)
        let connection = session.connection
        switch register(connection, outbox: outbox, ip: ip) {
        case .accepted:
            break
        case .tooManyFromAddress:
            // Reading was paused at the upgrade; the close handshake needs the peer's answer.
            try? await channel.setOption(ChannelOptions.autoRead, value: true).get()
            try? await outbound.close(.policyViolation, reason: "too many connections from your address")
            return
        case .draining:
            // Upgraded just as the drain began: treated like every other connection of the drain.
            outbox.close(code: 1012, reason: DrawServerRuntime.restartReason)
        }
        let activity = ActivityMonitor()
        activity.touch()
        let scheduler = writeSchedulers.scheduler(for: channel.eventLoop)
        let backlog = DrawingFastPath.Backlog()
        let timers = try? await channel.eventLoop.submit {
            let handler = ConnectionHandler(activity: activity)
            try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            let fastPath = DrawingFastPath(session: session, backlog: backlog, maxMessageBytes: maxMessageBytes)
            try channel.pipeline.syncOperations.addHandler(fastPath, position: .after(decoder))
            let sink = ChannelSink(handler: NIOLoopBound(handler, eventLoop: channel.eventLoop), channel: channel, outbound: outbound)
            handler.writer = ConnectionWriter(outbox: outbox, sink: sink, maxFrameSize: maxMessageBytes, scheduler: scheduler)
            let timers = ConnectionTimers(
                eventLoop: channel.eventLoop, limits: self.configuration.limits, outbox: outbox, activity: activity,
                hasSaidHello: { [weak self] in self?.hasSaidHello(connection) ?? false }, hardClose: hardClose
            )
            // Reading was paused at the upgrade (see `buildApplication`).
            try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            return timers
        }.get()
        // Without its pipeline the connection cannot be served (the channel is usually
        // closed already when this happens).
        if timers == nil { channel.close(promise: nil) }

        var inboundError: (any Error)?
        do {
            for try await message in inbound.messages(maxSize: maxMessageBytes) {
                defer { backlog.handled() }
                // After a close was requested nothing more is processed.
                guard !outbox.isClosing else { continue }
                // One frame can be larger than the message limit when the frame limit was
                // raised for the conformance echo: enforce the protocol's limit here too.
                guard message.byteCount <= maxMessageBytes else {
                    outbox.close(code: 1009, reason: "message too big", flush: false)
                    continue
                }
                switch message {
                case .binary(let buffer):
                    // A drawing frame that came this way waited behind an earlier message;
                    // most take `DrawingFastPath` instead.
                    session.receive(binary: buffer)
                case .text:
                    // Handled on a short-lived task, awaited so messages stay in order: the
                    // stack that decoding and dispatching a message needs is freed when it is
                    // done, instead of staying with this long-lived task for as long as the
                    // connection is open (about a third of an idle connection's memory).
                    await Task { [session] in await session.receive(message) }.value
                }
            }
        } catch {
            inboundError = error
        }
        timers?.cancel()
        await session.closed()
        if let inboundError { throw inboundError }
    }
}

extension WebSocketMessage {
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let buffer): buffer.readableBytes
        }
    }
}
