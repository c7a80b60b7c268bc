import NIOCore

/// The hello deadline and the heartbeat of one connection, as timers on its event loop
/// rather than tasks, so an idle connection costs no task beyond its reader.
struct ConnectionTimers {
    private let helloDeadline: Scheduled<Void>
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
        let helloSeconds = limits.helloTimeoutSeconds
        helloDeadline = eventLoop.scheduleTask(in: .seconds(Int64(helloSeconds))) {
            if !hasSaidHello() { outbox.close(code: .noHello, reason: "no hello within \(helloSeconds) s") }
        }
        guard limits.pingIntervalSeconds > 0 else {
            heartbeat = nil
            return
        }
        // Every interval a ping; a peer that sends nothing at all (not even the pong) within
        // the timeout is cut off, which the room sees as a disconnect. Not while the server
        // holds back reads itself: the pong may be among what it has not read yet.
        let interval = TimeAmount.seconds(Int64(limits.pingIntervalSeconds))
        let timeout = TimeAmount.seconds(Int64(limits.pingTimeoutSeconds))
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

    func cancel() {
        helloDeadline.cancel()
        heartbeat?.cancel()
    }
}
