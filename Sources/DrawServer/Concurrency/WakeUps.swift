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
    /// A room's members on one event loop (`MemberOutboxes`), shared by every frame fanned
    /// out to them.
    struct LoopMembers: Sendable {
        var loop: LoopDelivery
        var outboxes: [Outbox]
    }

    /// A frame for one connection, or for a room's members on one loop but one: what a
    /// loop's inbox holds.
    struct Delivery: Sendable {
        enum Recipients: Sendable {
            case one(Outbox)
            case members([Outbox], except: Outbox?)
        }
        var frame: WireFrame
        var recipients: Recipients
        /// It may be written as soon as the lock is released, if it overtakes nothing.
        var atOnce: Bool
    }

    /// A delivery and the loop it goes to.
    struct Addressed: Sendable {
        var loop: LoopDelivery
        var delivery: Delivery
    }

    private var deliveries: [Addressed] = []
    /// The distinct loops of `deliveries`, kept between hand-offs so one allocates nothing.
    private var loops: [LoopDelivery] = []
    /// The loop (the current one) with frames to write at once (`LoopDelivery.reserve`).
    private var reservedOn: LoopDelivery?
    /// Outputs on this loop that overflowed: their sockets are closed after a grace period.
    private var overflowed: [Outbox] = []
    /// Loops whose task must be queued.
    private var woken: [LoopDelivery] = []
    private var tasks: [CheckedContinuation<Void, Never>] = []
    /// What the fan-out's prefetch read; kept only so the compiler keeps the reads.
    private var prefetched = 0

    /// Collects a frame for a connection; `atOnce`: it may be written as soon as the lock is
    /// released, if it overtakes nothing.
    mutating func deliver(_ frame: WireFrame, to outbox: Outbox, atOnce: Bool = false) {
        deliveries.append(Addressed(loop: outbox.delivery, delivery: Delivery(frame: frame, recipients: .one(outbox), atOnce: atOnce)))
    }

    /// Collects a frame for every member but `except`: one entry per loop.
    mutating func deliver(_ frame: WireFrame, toMembers members: MemberOutboxes, except: Outbox?, atOnce: Bool = false) {
        for group in members.byLoop {
            if group.outboxes.count == 1 && group.outboxes[0] === except { continue }
            deliveries.append(Addressed(loop: group.loop, delivery: Delivery(frame: frame, recipients: .members(group.outboxes, except: except), atOnce: atOnce)))
        }
    }

    mutating func resume(_ task: CheckedContinuation<Void, Never>) { tasks.append(task) }

    /// Hands the frames collected so far to their connections' loops, in order, making no
    /// system call: one hand-off per loop.
    mutating func handOff() {
        guard !deliveries.isEmpty else { return }
        // Swapped out and back, so the array keeps its storage for the next time.
        var collected: [Addressed] = []
        swap(&collected, &deliveries)
        let first = collected[0].loop
        if collected.allSatisfy({ $0.loop === first }) {
            handOff(collected, to: first)
        } else {
            loops.removeAll(keepingCapacity: true)
            for entry in collected where !loops.contains(where: { $0 === entry.loop }) { loops.append(entry.loop) }
            for loop in loops { handOff(collected, to: loop) }
        }
        collected.removeAll(keepingCapacity: true)
        swap(&collected, &deliveries)
    }

    /// Hands `loop` its entries of `collected`.
    private mutating func handOff(_ collected: [Addressed], to loop: LoopDelivery) {
        if loop.isCurrent {
            // Frames handed to this loop from elsewhere go first (see `acceptHandedOff`).
            loop.acceptHandedOff(into: &self)
            for index in collected.indices where collected[index].loop === loop {
                accept(collected[index].delivery, on: loop, atOnce: collected[index].delivery.atOnce)
            }
        } else if loop.handOff(collected, to: loop) {
            woken.append(loop)
        }
    }

    /// Queues a delivery in its outputs, on their loop, the current one.
    mutating func accept(_ delivery: Delivery, on loop: LoopDelivery, atOnce: Bool) {
        switch delivery.recipients {
        case .one(let outbox):
            accept(delivery.frame, by: outbox, atOnce: atOnce, on: loop)
        case .members(let outboxes, let except):
            // Under load every member's outbox and output is a cache miss; touched here with
            // plain loads the processor overlaps, not one after another in the loop below.
            prefetched = outboxes.reduce(0) { $0 &+ $1.output.queuedBytes }
            for outbox in outboxes where outbox !== except {
                accept(delivery.frame, by: outbox, atOnce: atOnce, on: loop)
            }
        }
    }

    /// Queues a frame in an output of the current loop, and notes what it needs; false when
    /// the output refused it (closing, or overflowed).
    @discardableResult
    mutating func accept(_ frame: WireFrame, by outbox: Outbox, atOnce: Bool, on loop: LoopDelivery) -> Bool {
        let output = outbox.output
        switch output.accept(frame, atOnce: atOnce) {
        case .reserved:
            loop.reserve(output, for: frame)
            reservedOn = loop
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
        guard reservedOn != nil || !overflowed.isEmpty || !woken.isEmpty || !tasks.isEmpty else { return taken }
        swap(&taken.reservedOn, &reservedOn)
        swap(&taken.overflowed, &overflowed)
        swap(&taken.woken, &woken)
        swap(&taken.tasks, &tasks)
        return taken
    }

    /// Writes what goes at once, and does the wake-ups. The caller holds no lock.
    consuming func run() {
        reservedOn?.sendReserved()
        for outbox in overflowed { outbox.output.overflowed() }
        for loop in woken { loop.wake() }
        for task in tasks {
            LockAudit.systemCall("resumes a task")
            task.resume()
        }
    }
}
