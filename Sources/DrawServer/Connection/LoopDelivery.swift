import DrawProtocol
import NIOCore
import Synchronization

/// Delivery to the connections of one event loop: the hand-off of frames from other
/// threads, and the drains of its connections' outputs.
///
/// A room fanning a frame out to players on other loops hands each loop its share in one
/// go (`handOff`, under the room's lock, so every recipient gets frames in the order the
/// room decided): one short lock, and a wake-up of the loop only when its task is not
/// queued already. The task runs on the loop: it queues the handed-off frames in their
/// outputs and drains every output listed since the last one, so however many frames and
/// recipients a loop got since its last turn, it is woken once and each connection is
/// written once. Outputs of this loop's own connections are listed directly, on the loop,
/// with no lock (`list`).
///
/// Listed outputs are also drained when a connection's read burst ends (`drainNow`), so
/// what a read relayed goes out before the loop reads the next socket rather than after
/// every socket of the turn has been read.
package final class LoopDelivery: Sendable {
    let eventLoop: any EventLoop
    /// The loop's own time (`ServerClock.of`), for its connections' deadlines: one clock
    /// per loop, since a clock's closures would cost every connection four allocations.
    let clock: ServerClock
    private let inbox = Mutex(Inbox())
    /// The outputs to drain, on the loop only.
    private let listed: NIOLoopBoundBox<Listed>

    private struct Inbox {
        var frames: [WakeUps.Delivery] = []
        /// Whether a task that takes the inbox is queued on the loop.
        var taskQueued = false
    }

    private struct Listed {
        var outputs: [ConnectionOutput] = []
        /// The inbox's other array: the two swap back and forth, so a hand-off allocates
        /// nothing once both have grown.
        var spareInbox: [WakeUps.Delivery] = []
        /// The same for `outputs`.
        var spareOutputs: [ConnectionOutput] = []
        /// Frames a room reserved sockets of this loop for under its lock, written once the
        /// lock is released (`sendReserved`).
        var reserved: [(output: ConnectionOutput, frame: WireFrame)] = []
        /// Whether a task that drains `outputs` is queued on the loop.
        var taskQueued = false
    }

    package init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.clock = .of(eventLoop)
        self.listed = .makeBoxSendingValue(Listed(), as: Listed.self, eventLoop: eventLoop)
    }

    /// Whether the caller runs on this loop.
    var isCurrent: Bool { eventLoop.inEventLoop }

    /// Hands this loop its entries of `collected` (those for `loop`, which is this one), in
    /// order; true when the loop must be woken (`wake`), which the caller does once it holds
    /// no lock. Makes no system call, so a room calls it under its lock.
    func handOff(_ collected: [WakeUps.Addressed], to loop: LoopDelivery) -> Bool {
        LockAudit.acquired("a loop's inbox")
        return inbox.withLock { inbox in
            for index in collected.indices where collected[index].loop === loop { inbox.frames.append(collected[index].delivery) }
            guard !inbox.taskQueued else { return false }
            inbox.taskQueued = true
            return true
        }
    }

    /// Queues the task that takes the inbox and drains. The caller holds no lock.
    func wake() {
        LockAudit.systemCall("wakes an event loop")
        eventLoop.execute { self.runTask() }
    }

    /// Lists an output of this loop for the next drain. On the loop; true when the caller
    /// must queue the drain task (`wake`) once it holds no lock, which without `wakeLater`
    /// this does itself.
    @discardableResult
    func list(_ output: ConnectionOutput, wakeLater: Bool = false) -> Bool {
        guard !output.listedForDrain else { return false }
        output.listedForDrain = true
        let queueTask = listed.withValue { listed in
            listed.outputs.append(output)
            guard !listed.taskQueued else { return false }
            listed.taskQueued = true
            return true
        }
        guard queueTask else { return false }
        if wakeLater { return true }
        wake()
        return false
    }

    /// Queues the frames handed off so far in their outputs, in order, listing each for a
    /// drain. On the loop, making no system call (what needs one goes into `wakes`), so a
    /// room does it under its lock before queueing frames of its own for this loop's
    /// connections: what it handed off from another thread earlier stays ahead of them.
    func acceptHandedOff(into wakes: inout WakeUps, endingTask: Bool = false) {
        LockAudit.acquired("a loop's inbox")
        var taken = listed.withValue { listed in
            var spare: [WakeUps.Delivery] = []
            swap(&spare, &listed.spareInbox)
            return spare
        }
        inbox.withLock { inbox in
            // Only the task itself says it is no longer queued.
            if endingTask { inbox.taskQueued = false }
            if !inbox.frames.isEmpty { swap(&taken, &inbox.frames) }
        }
        for delivery in taken { wakes.accept(delivery, on: self, atOnce: false) }
        taken.removeAll(keepingCapacity: true)
        listed.withValue { $0.spareInbox = taken }
    }

    /// Notes a frame `output` reserved its socket for (`ConnectionOutput.accept`), to write
    /// with `sendReserved`. On the loop, making no system call.
    func reserve(_ output: ConnectionOutput, for frame: WireFrame) {
        listed.withValue { $0.reserved.append((output, frame)) }
    }

    /// Writes the frames reserved so far, in order. On the loop, holding no lock.
    func sendReserved() {
        var reserved = listed.withValue { listed -> [(output: ConnectionOutput, frame: WireFrame)] in
            var taken: [(output: ConnectionOutput, frame: WireFrame)] = []
            swap(&taken, &listed.reserved)
            return taken
        }
        for entry in reserved { entry.output.sendReserved(entry.frame) }
        reserved.removeAll(keepingCapacity: true)
        listed.withValue { listed in
            if listed.reserved.isEmpty { swap(&listed.reserved, &reserved) }
        }
    }

    /// Takes the inbox and drains what is listed, now, on the loop: at the end of a
    /// connection's read burst.
    ///
    /// The reading connection's own output is left to the queued task: at the peer's EOF,
    /// NIO fires read-complete and then closes the channel's input, so nothing may close that
    /// channel in between, and a drain whose write fails on the dead socket would.
    func drainNow(except reader: ConnectionOutput?) {
        var wakes = WakeUps()
        acceptHandedOff(into: &wakes)
        var deferred = false
        var outputs = takeListed(forgettingTaskIn: &wakes)
        for output in outputs {
            if output === reader {
                deferred = true
            } else {
                output.drain()
            }
        }
        giveBack(&outputs)
        wakes.run()
        guard deferred, let reader else { return }
        reader.listedForDrain = false
        list(reader)
    }

    /// The task `wake` queues: takes the inbox and drains what is listed.
    private func runTask() {
        var wakes = WakeUps()
        acceptHandedOff(into: &wakes, endingTask: true)
        listed.withValue { $0.taskQueued = false }
        var outputs = takeListed(forgettingTaskIn: &wakes)
        for output in outputs { output.drain() }
        giveBack(&outputs)
        wakes.run()
    }

    /// The outputs listed, now no longer listed. A task that listing asked `wakes` for is
    /// not needed: they are drained now.
    private func takeListed(forgettingTaskIn wakes: inout WakeUps) -> [ConnectionOutput] {
        let askedForTask = wakes.forgetWake(of: self)
        return listed.withValue { listed -> [ConnectionOutput] in
            if askedForTask { listed.taskQueued = false }
            var taken: [ConnectionOutput] = []
            swap(&taken, &listed.spareOutputs)
            swap(&taken, &listed.outputs)
            return taken
        }
    }

    /// Gives back the array `takeListed` returned, emptied, for the next time.
    private func giveBack(_ outputs: inout [ConnectionOutput]) {
        outputs.removeAll(keepingCapacity: true)
        let spare = outputs
        outputs = []
        listed.withValue { $0.spareOutputs = spare }
    }
}

/// One `LoopDelivery` per event loop, made on first use.
package final class LoopDeliveries: Sendable {
    private let deliveries = Mutex<[ObjectIdentifier: LoopDelivery]>([:])

    package init() {}

    package func delivery(for eventLoop: any EventLoop) -> LoopDelivery {
        deliveries.withLock { map in
            let key = ObjectIdentifier(eventLoop)
            if let existing = map[key] { return existing }
            let made = LoopDelivery(eventLoop: eventLoop)
            map[key] = made
            return made
        }
    }
}
