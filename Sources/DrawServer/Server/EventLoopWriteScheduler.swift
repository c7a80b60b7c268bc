import NIOCore
import Synchronization

/// Drains the connection writers of one event loop that have work, in one event-loop task.
///
/// A room relaying a frame to seven players wakes each player's writer; the writers on
/// the same event loop share one scheduled task instead of one each, so a fan-out costs
/// at most one cross-thread wake-up per event loop. Writers woken while that task is
/// pending join it; those woken while it runs get the next one.
final class EventLoopWriteScheduler: Sendable {
    let eventLoop: any EventLoop
    private let pending = Mutex<[ConnectionWriter]>([])

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Queues `writer` for the next drain. Called once per outbox wake-up, from any thread.
    func schedule(_ writer: ConnectionWriter) {
        let first = pending.withLock { writers in
            writers.append(writer)
            return writers.count == 1
        }
        if first { eventLoop.execute { self.drainAll() } }
    }

    private func drainAll() {
        let writers = pending.withLock { writers in
            var taken: [ConnectionWriter] = []
            taken.reserveCapacity(writers.count)
            swap(&taken, &writers)
            return taken
        }
        for writer in writers { writer.drain() }
    }
}

/// One `EventLoopWriteScheduler` per event loop, made on first use.
final class EventLoopWriteSchedulers: Sendable {
    private let schedulers = Mutex<[ObjectIdentifier: EventLoopWriteScheduler]>([:])

    func scheduler(for eventLoop: any EventLoop) -> EventLoopWriteScheduler {
        schedulers.withLock { map in
            let key = ObjectIdentifier(eventLoop)
            if let existing = map[key] { return existing }
            let made = EventLoopWriteScheduler(eventLoop: eventLoop)
            map[key] = made
            return made
        }
    }
}
