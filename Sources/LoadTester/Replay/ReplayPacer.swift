import NIOCore

/// Wakes the drawers of one event loop's rooms when their next frame is due, with one NIO
/// timer for all of them.
///
/// A timer per frame (a `scheduleTask` per room, 60 times a second each) cost the load
/// generator a promise, a closure and an entry in NIO's task heap per frame, whose copies
/// retain and release: a few per cent of its CPU at the loads where it is the limit. Here a
/// wake-up is a plain value in a min-heap, and NIO's timer is re-armed only for the earliest.
/// On its event loop only.
final class ReplayPacer {
    /// A room to wake at `due`, unless it has since moved to another pass (`pass`).
    private struct Wake {
        var due: UInt64
        var slot: Int32
        var pass: Int32
    }

    let eventLoop: any EventLoop
    private var rooms: [ReplayRoom] = []
    private var heap: [Wake] = []
    private var timer: Scheduled<Void>?
    private var timerDue: UInt64 = .max
    private var firing = false

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Registers a room; the slot names it in `wake`.
    func register(_ room: ReplayRoom) -> Int32 {
        rooms.append(room)
        return Int32(rooms.count - 1)
    }

    /// Calls `paced(pass:)` on the room in `slot` once `due` (uptime nanoseconds) has come.
    func wake(slot: Int32, pass: Int32, at due: UInt64) {
        push(Wake(due: due, slot: slot, pass: pass))
        if !firing, due < timerDue { arm(due) }
    }

    private func arm(_ due: UInt64) {
        timer?.cancel()
        timerDue = due
        timer = eventLoop.scheduleTask(deadline: .uptimeNanoseconds(due)) { [self] in fire() }
    }

    private func fire() {
        timer = nil
        timerDue = .max
        firing = true
        let now = NIODeadline.now().uptimeNanoseconds
        while let first = heap.first, first.due <= now {
            let wake = pop()
            rooms[Int(wake.slot)].paced(pass: wake.pass)
        }
        firing = false
        if let first = heap.first { arm(first.due) }
    }

    // MARK: - The min-heap, on `due`

    private func push(_ wake: Wake) {
        heap.append(wake)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Wake {
        let top = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return top }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            var child = left
            if left + 1 < heap.count, heap[left + 1].due < heap[left].due { child = left + 1 }
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            parent = child
        }
        return top
    }
}
