import CoreMetrics
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Rooms

extension GameServer {
    /// Serves one `/ws` connection until it closes: a writer task drains the outbox, a
    /// watchdog enforces the hello deadline, a heartbeat pings and cuts off silent peers,
    /// and this task reads and dispatches messages.
    ///
    /// Errors from the inbound stream (invalid UTF-8, a protocol violation) are rethrown
    /// after clean-up so the WebSocket layer closes with the matching code (1007, 1002).
    func serveWebSocket(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel) async throws {
        let limits = configuration.limits
        let hardClose: @Sendable () -> Void = { channel.close(promise: nil) }
        let overflows = metrics.queueOverflows
        let outbox = Outbox(limit: limits.outboundQueueBytes, hardClose: hardClose, onOverflow: { overflows.increment() })
        let ip = channel.remoteAddress?.ipAddress ?? "unknown"
        var session = ClientSession(server: self, outbox: outbox, remoteIP: ip)
        let connection = session.connection
        switch register(connection, outbox: outbox, ip: ip) {
        case .accepted:
            break
        case .tooManyFromAddress:
            try? await outbound.close(.policyViolation, reason: "too many connections from your address")
            return
        case .draining:
            // Upgraded just as the drain began: treated like every other connection of the drain.
            outbox.close(code: 1012, reason: DrawServerRuntime.restartReason)
        }
        let activity = ActivityMonitor()
        activity.touch()
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(ActivityMonitor.Handler(activity), position: .first)
        }.get()

        var inboundError: (any Error)?
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await ConnectionWriter(outbox: outbox, outbound: outbound, maxFrameSize: limits.maxBinaryFrameBytes, hardClose: hardClose).run()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(limits.helloTimeoutSeconds))
                if !Task.isCancelled, !self.hasSaidHello(connection) {
                    outbox.close(code: 4003, reason: "no hello within \(limits.helloTimeoutSeconds) s")
                }
            }
            group.addTask {
                await Self.heartbeat(outbox: outbox, activity: activity, limits: limits, hardClose: hardClose)
            }
            do {
                for try await message in inbound.messages(maxSize: limits.maxBinaryFrameBytes) {
                    // After a close was requested nothing more is processed.
                    guard !outbox.isClosing else { continue }
                    // One frame can be larger than the message limit when the frame limit was
                    // raised for the conformance echo: enforce the protocol's limit here too.
                    guard message.byteCount <= limits.maxBinaryFrameBytes else {
                        outbox.close(code: 1009, reason: "message too big", flush: false)
                        continue
                    }
                    await session.receive(message)
                }
            } catch {
                inboundError = error
            }
            await session.closed()
            group.cancelAll()
        }
        if let inboundError { throw inboundError }
    }

    /// Pings every interval; a peer that sends nothing at all (not even the pong) within
    /// the timeout is cut off, which the room sees as a disconnect.
    static func heartbeat(outbox: Outbox, activity: ActivityMonitor, limits: ServerConfiguration.Limits, hardClose: @Sendable () -> Void) async {
        guard limits.pingIntervalSeconds > 0 else { return }
        var payload = 0 as UInt64
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(limits.pingIntervalSeconds))
                let sentAt = activity.nowMs
                payload &+= 1
                outbox.send(.ping(payload))
                try await Task.sleep(for: .seconds(limits.pingTimeoutSeconds))
                if activity.lastReadMs < sentAt {
                    outbox.close(code: 1001, reason: "no answer to ping", flush: false)
                    hardClose()
                    return
                }
            } catch {
                return
            }
        }
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
