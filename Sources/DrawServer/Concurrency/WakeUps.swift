/// The wake-ups a room decides under its lock, done once the lock is released.
///
/// Queuing a frame for another event loop's connection, or a change for the store, is a
/// few stores to memory; waking that loop (its `eventfd`) or the store's writer task (a
/// thread) is a system call, and no system call is made under a room's lock. So what is
/// queued under the lock names what to wake here, and the room does it after unlocking:
/// the writers woken are grouped by event loop, one hand-off per loop however many of its
/// connections a fan-out reached.
///
/// Nothing is lost in between: a writer or the store, once it has been named here, is not
/// named again until it has been woken and has taken its work.
struct WakeUps: Sendable {
    private var writers: [ConnectionWriter] = []
    /// Outboxes that overflowed: their sockets are closed after a grace period.
    private var overflowed: [Outbox] = []
    private var tasks: [CheckedContinuation<Void, Never>] = []

    var isEmpty: Bool { writers.isEmpty && overflowed.isEmpty && tasks.isEmpty }

    mutating func wake(_ writer: ConnectionWriter) { writers.append(writer) }

    mutating func closeAfterGrace(_ outbox: Outbox) { overflowed.append(outbox) }

    mutating func resume(_ task: CheckedContinuation<Void, Never>) { tasks.append(task) }

    /// Takes what was collected, leaving nothing.
    mutating func take() -> WakeUps {
        guard !isEmpty else { return WakeUps() }
        var taken = WakeUps()
        swap(&taken, &self)
        return taken
    }

    /// Does the wake-ups. The caller holds no lock.
    consuming func run() {
        if writers.count == 1 {
            writers[0].workArrived()
        } else if !writers.isEmpty {
            // Runs of the same event loop, each handed over in one go.
            writers.sort { ObjectIdentifier($0.scheduler) < ObjectIdentifier($1.scheduler) }
            var start = writers.startIndex
            while start < writers.endIndex {
                let scheduler = writers[start].scheduler
                var end = start + 1
                while end < writers.endIndex, writers[end].scheduler === scheduler { end += 1 }
                scheduler.schedule(contentsOf: writers[start..<end])
                start = end
            }
        }
        for outbox in overflowed { outbox.scheduleHardClose() }
        for task in tasks {
            LockAudit.systemCall("resumes a task")
            task.resume()
        }
    }
}
