import NIOCore

/// The game side of one `/ws` connection, on its event loop: hands each message to the
/// connection's `ClientSession`. A drawing frame is judged and relayed right where it was
/// read, unless messages read before it are still waiting in the `SessionInbox`; text
/// messages go through the inbox to a short-lived task, one at a time and in order.
final class GameConnection: WebSocketService {
    let session: ClientSession
    let inbox = SessionInbox()
    private let eventLoop: any EventLoop
    private let timers: ConnectionTimers

    init(session: ClientSession, eventLoop: any EventLoop, timers: ConnectionTimers) {
        self.session = session
        self.eventLoop = eventLoop
        self.timers = timers
    }

    func received(_ message: WebSocketReceiver.Message, on connection: WebSocketConnectionHandler) {
        // After the server asked to close, nothing more is handled.
        guard !session.outbox.isClosing else { return }
        let item: SessionInbox.Item
        switch message {
        case .binary(let buffer):
            if inbox.isIdle {
                session.receive(binary: buffer)
                return
            }
            item = .binary(buffer)
        case .text(let buffer):
            item = .text(buffer)
        }
        let (startTask, pause) = inbox.enqueue(item)
        if pause {
            connection.pauseReading()
            timers.activity.holdReads(true)
        }
        if startTask { startHandling(resumingReadsOf: NIOLoopBound(connection, eventLoop: eventLoop)) }
    }

    func closeSent() {
        session.outbox.finish()
    }

    func connectionClosed() {
        timers.cancel()
        if inbox.close() { startHandling(resumingReadsOf: nil) }
    }

    /// Handles the inbox until it is empty. The task's stack is freed when it ends, rather
    /// than staying with the connection for as long as it is open. The task holds the
    /// connection only while it runs, to resume reading it.
    private func startHandling(resumingReadsOf connection: NIOLoopBound<WebSocketConnectionHandler>?) {
        let (inbox, session, eventLoop) = (self.inbox, self.session, self.eventLoop)
        let activity = timers.activity
        Task {
            while true {
                let (item, resume) = inbox.next()
                if resume, let connection {
                    eventLoop.execute {
                        connection.value.resumeReading()
                        activity.holdReads(false)
                    }
                }
                guard let item else { return }
                switch item {
                case .text(let buffer):
                    guard !session.outbox.isClosing else { continue }
                    await session.receiveText(Array(buffer: buffer))
                case .binary(let buffer):
                    guard !session.outbox.isClosing else { continue }
                    session.receive(binary: buffer)
                case .closed:
                    await session.closed()
                }
            }
        }
    }
}
