import NIOCore
import Rooms
import Synchronization

/// When the peer last sent anything (data, a pong, a ping), noted by `SocketHandler`
/// at the front of the pipeline, so the heartbeat can tell a silent or black-holed client.
final class ActivityMonitor: Sendable {
    private let lastRead = Atomic<Int64>(0)
    private let readsHeld = Atomic<Bool>(false)
    private let clock: ServerClock

    /// `clock` is the connection's event loop's (`ServerClock.of`), the clock its heartbeat's
    /// timers run on, so both move together, on virtual time too.
    init(clock: ServerClock = ServerClock()) {
        self.clock = clock
    }

    /// Whether the server itself is not reading the connection (its session has messages
    /// in hand): the peer's answer to a ping may be waiting unread, so its silence is ours.
    var isHoldingReads: Bool { readsHeld.load(ordering: .relaxed) }

    /// Reading stopped (`true`) or started again (`false`). Starting again counts as
    /// activity, since what the peer sent meanwhile is only now read.
    func holdReads(_ held: Bool) {
        readsHeld.store(held, ordering: .relaxed)
        if !held { touch() }
    }

    func touch() {
        lastRead.store(nowMs, ordering: .relaxed)
    }

    /// Milliseconds since the monitor started.
    var nowMs: Int64 { clock.now.milliseconds }

    var lastReadMs: Int64 { lastRead.load(ordering: .relaxed) }
}
