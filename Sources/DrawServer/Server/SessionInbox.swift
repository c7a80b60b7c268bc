import NIOCore
import Synchronization

/// The messages of one connection that wait to be handled off the event loop, in order.
///
/// Text messages need the lobby or a room actor, so they are handled on a task; drawing
/// frames are handled right on the event loop, unless something read before them is still
/// waiting here, in which case they wait too, to keep the connection's order. The task
/// exists only while there is something to handle: it is started by the message that
/// finds the inbox idle and ends when the inbox is empty again.
final class SessionInbox: Sendable {
    enum Item: Sendable {
        case text(ByteBuffer)
        case binary(ByteBuffer)
        /// The connection closed: handled after the message in hand, instead of the rest.
        case closed
    }

    /// Above this many waiting messages the connection stops reading until they are handled.
    static let pauseThreshold = 8

    private struct State {
        var items: [Item] = []
        var head = 0
        /// A task is handling items (or is about to).
        var busy = false
        var readingPaused = false
        var closed = false

        var count: Int { items.count - head }
    }

    private let state = Mutex(State())

    /// Whether nothing is waiting or being handled: a drawing frame can be handled now.
    var isIdle: Bool { state.withLock { !$0.busy } }

    /// Queues a message. Returns whether the caller must start the task that handles the
    /// inbox, and whether it should pause reading.
    func enqueue(_ item: Item) -> (startTask: Bool, pauseReading: Bool) {
        state.withLock { state in
            guard !state.closed else { return (false, false) }
            state.items.append(item)
            let start = !state.busy
            state.busy = true
            let pause = state.count >= Self.pauseThreshold && !state.readingPaused
            if pause { state.readingPaused = true }
            return (start, pause)
        }
    }

    /// Drops what is waiting and queues `.closed`. Returns whether the caller must start the
    /// task.
    func close() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.closed = true
            state.items = [.closed]
            state.head = 0
            let start = !state.busy
            state.busy = true
            return start
        }
    }

    /// The next item for the task, or nil when the inbox is empty (the task then ends).
    /// `resumeReading` is true when reading was paused and there is room again.
    func next() -> (item: Item?, resumeReading: Bool) {
        state.withLock { state in
            var resume = false
            if state.readingPaused && state.count <= Self.pauseThreshold / 2 {
                state.readingPaused = false
                resume = true
            }
            guard state.head < state.items.count else {
                state.items.removeAll(keepingCapacity: false)
                state.head = 0
                state.busy = false
                return (nil, resume)
            }
            let item = state.items[state.head]
            // The slot lets go of the message's bytes now, not when the inbox next empties.
            state.items[state.head] = .closed
            state.head += 1
            return (item, resume)
        }
    }
}
