import DrawProtocol
import NIOCore
import Rooms

/// The hello deadline and the heartbeat of one connection, as timers on its event loop
/// rather than tasks, so an idle connection costs no task beyond its reader.
struct ConnectionTimers {
    /// Nil once the hello was accepted (`helloAccepted`).
    private var helloDeadline: Scheduled<Void>?
    private let heartbeat: RepeatedTask?
    /// What the heartbeat judges the peer by.
    let activity: ActivityMonitor

    /// - Parameters:
    ///   - hasSaidHello: whether the connection's hello was accepted (checked at the deadline).
    ///   - hardClose: closes the socket without a handshake.
    init(
        eventLoop: any EventLoop,
        limits: ServerConfiguration.Limits,
        outbox: Outbox,
        activity: ActivityMonitor,
        hasSaidHello: @escaping @Sendable () -> Bool,
        hardClose: @escaping @Sendable () -> Void
    ) {
        self.activity = activity
        let helloTimeout = limits.helloTimeout
        helloDeadline = eventLoop.scheduleTask(in: TimeAmount(helloTimeout)) {
            if !hasSaidHello() { outbox.close(code: .noHello, reason: "no hello within \(DurationText.describe(helloTimeout))") }
        }
        guard limits.pingInterval > .zero else {
            heartbeat = nil
            return
        }
        // Every interval a ping; a peer that sends nothing at all (not even the pong) within
        // the timeout is cut off, which the room sees as a disconnect. Not while the server
        // holds back reads itself: the pong may be among what it has not read yet.
        let interval = TimeAmount(limits.pingInterval)
        let timeout = TimeAmount(limits.pingTimeout)
        heartbeat = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            let sentAt = activity.nowMs
            var payload = ByteBuffer()
            payload.writeInteger(UInt64(max(0, sentAt)))
            outbox.send(WireFrame(.ping, payload: payload))
            eventLoop.scheduleTask(in: timeout) {
                guard activity.lastReadMs < sentAt, !activity.isHoldingReads else { return }
                outbox.close(code: .goingAway, reason: "no answer to ping", flush: false)
                hardClose()
            }
        }
    }

    /// The hello was accepted: the deadline is called off and let go at once rather than
    /// kept to the end of the connection. Pending, it held its closures for the hello
    /// timeout, and fired, its promise for good: memory every connection opened in a burst
    /// would keep resident.
    mutating func helloAccepted() {
        helloDeadline?.cancel()
        helloDeadline = nil
    }

    func cancel() {
        helloDeadline?.cancel()
        heartbeat?.cancel()
    }
}
