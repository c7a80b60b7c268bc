import DrawProtocol

/// The deliveries and wake-ups a room decides under its lock.
///
/// Under the lock, frames are only collected (`deliver`) and then handed out in one go per
/// event loop (`handOff`): queued directly in the outputs of connections on the current
/// loop, and handed to every other loop's inbox with one short lock each. Handing off under
/// the room's lock keeps every recipient's frames in the order the room decided them.
/// Writing a socket, waking another loop (its `eventfd`) or the store's writer (a thread)
/// are system calls, and none is made under a room's lock: they are named here and done by
/// `run` once the lock is released.
///
/// Nothing is lost in between: an output or a loop, once named here, is not named again
/// until it has been written or woken and has taken its work.
struct WakeUps: Sendable {
    private var deliveries: [(outbox: Outbox, frame: WireFrame, atOnce: Bool)] = []
    /// The distinct loops of `deliveries`, kept between hand-offs so one allocates nothing.
    private var loops: [LoopDelivery] = []
    /// Outputs on this loop with a frame to write at once.
    private var sendNow: [Outbox] = []
    /// Outputs on this loop that overflowed: their sockets are closed after a grace period.
    private var overflowed: [Outbox] = []
    /// Loops whose task must be queued.
    private var woken: [LoopDelivery] = []
    private var tasks: [CheckedContinuation<Void, Never>] = []

    var isEmpty: Bool { deliveries.isEmpty && sendNow.isEmpty && overflowed.isEmpty && woken.isEmpty && tasks.isEmpty }

    /// Collects a frame for a connection; `atOnce`: it may be written as soon as the lock is
    /// released, if it overtakes nothing.
    mutating func deliver(_ frame: WireFrame, to outbox: Outbox, atOnce: Bool = false) {
        deliveries.append((outbox, frame, atOnce))
    }

    mutating func resume(_ task: CheckedContinuation<Void, Never>) { tasks.append(task) }

    /// Hands the frames collected so far to their connections' loops, in order, making no
    /// system call: one hand-off per loop.
    mutating func handOff() {
        guard !deliveries.isEmpty else { return }
        loops.removeAll(keepingCapacity: true)
        for entry in deliveries where !loops.contains(where: { $0 === entry.outbox.delivery }) {
            loops.append(entry.outbox.delivery)
        }
        for loop in loops {
            if loop.isCurrent {
                // Frames handed to this loop from elsewhere go first (see `acceptHandedOff`).
                loop.acceptHandedOff(into: &self)
                for entry in deliveries where entry.outbox.delivery === loop {
                    accept(entry.frame, by: entry.outbox, atOnce: entry.atOnce, on: loop)
                }
            } else if loop.handOff(deliveries.lazy.filter { $0.outbox.delivery === loop }.map { ($0.outbox, $0.frame) }) {
                woken.append(loop)
            }
        }
        deliveries.removeAll(keepingCapacity: true)
    }

    /// Queues a frame in an output of the current loop, and notes what it needs; false when
    /// the output refused it (closing, or overflowed).
    @discardableResult
    mutating func accept(_ frame: WireFrame, by outbox: Outbox, atOnce: Bool, on loop: LoopDelivery) -> Bool {
        let output = outbox.output
        switch output.accept(frame, atOnce: atOnce) {
        case .sendNow:
            sendNow.append(outbox)
        case .listForDrain:
            if loop.list(output, wakeLater: true) { woken.append(loop) }
        case .queued:
            break
        case .overflowed(let listForDrain):
            if listForDrain, loop.list(output, wakeLater: true) { woken.append(loop) }
            overflowed.append(outbox)
            return false
        case .refused:
            return false
        }
        return true
    }

    /// Drops the wake-up of `loop`, if one was asked for; whether one was.
    mutating func forgetWake(of loop: LoopDelivery) -> Bool {
        guard let index = woken.firstIndex(where: { $0 === loop }) else { return false }
        woken.remove(at: index)
        return true
    }

    /// Takes what `run` must do, leaving the collection's storage here for the next time.
    mutating func take() -> WakeUps {
        var taken = WakeUps()
        guard !sendNow.isEmpty || !overflowed.isEmpty || !woken.isEmpty || !tasks.isEmpty else { return taken }
        swap(&taken.sendNow, &sendNow)
        swap(&taken.overflowed, &overflowed)
        swap(&taken.woken, &woken)
        swap(&taken.tasks, &tasks)
        return taken
    }

    /// Writes what goes at once, and does the wake-ups. The caller holds no lock.
    consuming func run() {
        for outbox in sendNow { outbox.output.sendNow() }
        for outbox in overflowed { outbox.output.overflowed() }
        for loop in woken { loop.wake() }
        for task in tasks {
            LockAudit.systemCall("resumes a task")
            task.resume()
        }
    }
}
