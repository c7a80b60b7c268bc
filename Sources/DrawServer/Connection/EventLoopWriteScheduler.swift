import NIOCore
import Synchronization

/// Drains the connection writers of one event loop that have work, in one event-loop task.
///
/// A room relaying a frame to seven players wakes each player's writer; the writers on
/// the same event loop share one scheduled task instead of one each, so a fan-out costs
/// at most one cross-thread wake-up per event loop. Writers woken while that task is
/// pending join it; those woken while it runs get the next one. Writers woken by a read on
/// the loop itself do not wait for the task: the reading connection's handler drains them
/// when its read burst ends (`drainNow`), and the task then finds nothing left but that
/// connection's own writer, if it was woken.
package final class EventLoopWriteScheduler: Sendable {
    let eventLoop: any EventLoop
    private let pending = Mutex<Pending>(Pending())

    private struct Pending {
        var writers: [ConnectionWriter] = []
        /// Whether a `drainAll` task is queued on the event loop.
        var taskQueued = false

        /// Whether the caller must queue the `drainAll` task (none is queued yet).
        mutating func queueTask() -> Bool {
            guard !taskQueued else { return false }
            taskQueued = true
            return true
        }
    }

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Queues `writer` for the next drain. Called once per outbox wake-up, from any thread
    /// holding no lock (it may wake the event loop).
    func schedule(_ writer: ConnectionWriter) {
        let queueTask = pending.withLock { pending in
            pending.writers.append(writer)
            return pending.queueTask()
        }
        if queueTask { wakeLoop() }
    }

    /// Queues writers of this loop that one fan-out woke, in one hand-off.
    func schedule(contentsOf writers: ArraySlice<ConnectionWriter>) {
        let queueTask = pending.withLock { pending in
            pending.writers.append(contentsOf: writers)
            return pending.queueTask()
        }
        if queueTask { wakeLoop() }
    }

    private func wakeLoop() {
        LockAudit.systemCall("wakes an event loop")
        eventLoop.execute { self.drainAll() }
    }

    /// Drains the writers woken so far, now, on the event loop: called when a connection's
    /// read burst ends, so what it relayed goes out before the loop reads the next socket
    /// rather than after every socket of the turn has been read.
    ///
    /// The reading connection's own writer is left to the queued task: at the peer's EOF,
    /// NIO fires read-complete and then closes the channel's input, so nothing may close
    /// that channel in between, and a drain whose write fails on the dead socket would.
    func drainNow(except reader: ConnectionWriter?) {
        let taken = take(endingTask: false)
        var deferred = false
        for writer in taken {
            if writer === reader {
                deferred = true
            } else {
                writer.drain()
            }
        }
        guard deferred, let reader else { return }
        // The task is still queued: it was when the writer was scheduled, and only the task
        // itself clears that.
        pending.withLock { $0.writers.append(reader) }
    }

    private func drainAll() {
        for writer in take(endingTask: true) { writer.drain() }
    }

    private func take(endingTask: Bool) -> [ConnectionWriter] {
        pending.withLock { pending in
            if endingTask { pending.taskQueued = false }
            guard !pending.writers.isEmpty else { return [] }
            var taken: [ConnectionWriter] = []
            taken.reserveCapacity(pending.writers.count)
            swap(&taken, &pending.writers)
            return taken
        }
    }
}

/// One `EventLoopWriteScheduler` per event loop, made on first use.
package final class EventLoopWriteSchedulers: Sendable {
    private let schedulers = Mutex<[ObjectIdentifier: EventLoopWriteScheduler]>([:])

    package func scheduler(for eventLoop: any EventLoop) -> EventLoopWriteScheduler {
        schedulers.withLock { map in
            let key = ObjectIdentifier(eventLoop)
            if let existing = map[key] { return existing }
            let made = EventLoopWriteScheduler(eventLoop: eventLoop)
            map[key] = made
            return made
        }
    }
}
