import NIOCore
import Synchronization

/// When the peer last sent anything (data, a pong, a ping), noted by `ConnectionHandler`
/// at the front of the pipeline, so the heartbeat can tell a silent or black-holed client.
final class ActivityMonitor: Sendable {
    private let lastRead = Atomic<Int64>(0)
    private let origin = ContinuousClock.now

    func touch() {
        let elapsed = ContinuousClock.now - origin
        lastRead.store(elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000, ordering: .relaxed)
    }

    /// Milliseconds since the monitor started.
    var nowMs: Int64 {
        let elapsed = ContinuousClock.now - origin
        return elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }

    var lastReadMs: Int64 { lastRead.load(ordering: .relaxed) }
}
