import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Rooms

extension GameServer {
    /// Serves one `/ws` connection until it closes: a writer task drains the outbox, a
    /// watchdog enforces the hello deadline, and this task reads and dispatches messages.
    func serveWebSocket(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel) async {
        let limits = configuration.limits
        let hardClose: @Sendable () -> Void = { channel.close(promise: nil) }
        let outbox = Outbox(limit: limits.outboundQueueBytes, hardClose: hardClose)
        var session = ClientSession(server: self, outbox: outbox)
        let connection = session.connection
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
                    await session.receive(message)
                }
            } catch {
                logger.debug("WebSocket ended with an error", metadata: ["error": "\(error)"])
            }
            await session.closed()
            group.cancelAll()
        }
    }
}
