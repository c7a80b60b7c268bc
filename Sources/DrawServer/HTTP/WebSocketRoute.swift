import CoreMetrics
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Rooms

extension GameServer {
    /// Serves one `/ws` connection until it closes: a writer task drains the outbox, a
    /// watchdog enforces the hello deadline, and this task reads and dispatches messages.
    ///
    /// Errors from the inbound stream (invalid UTF-8, a protocol violation) are rethrown
    /// after clean-up so the WebSocket layer closes with the matching code (1007, 1002).
    func serveWebSocket(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel) async throws {
        let limits = configuration.limits
        let hardClose: @Sendable () -> Void = { channel.close(promise: nil) }
        let overflows = metrics.queueOverflows
        let outbox = Outbox(limit: limits.outboundQueueBytes, hardClose: hardClose, onOverflow: { overflows.increment() })
        var session = ClientSession(server: self, outbox: outbox)
        let connection = session.connection
        register(connection, outbox: outbox)
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
}

extension WebSocketMessage {
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let buffer): buffer.readableBytes
        }
    }
}
