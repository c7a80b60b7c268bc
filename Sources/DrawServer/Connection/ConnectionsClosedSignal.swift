import Synchronization

/// Tells whoever waits (the drain) that the last open connection has closed, so it awaits
/// that moment instead of polling the count.
///
/// No wake-up is lost: a waiter is added before it looks at the count (`GameServer.
/// whenNoConnections`), and a connection that closes is removed from the count before the
/// signal fires; so either the waiter sees no connection or the last close sees the waiter.
final class ConnectionsClosedSignal: Sendable {
    private let waiters = Mutex<[@Sendable () -> Void]>([])

    func add(_ body: @escaping @Sendable () -> Void) {
        waiters.withLock { $0.append(body) }
    }

    /// No connection is open (now, or when a waiter looked): runs and forgets every waiter.
    func fire() {
        let due = waiters.withLock { waiting -> [@Sendable () -> Void] in
            defer { waiting.removeAll() }
            return waiting
        }
        for body in due { body() }
    }
}
