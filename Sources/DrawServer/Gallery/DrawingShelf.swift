import Canvas
import DrawProtocol
import Rooms
import Synchronization

/// The stroke logs of the most recent finished drawings, by id, so their images can be
/// served the moment `turnEnd` goes out (the database gets the turn a batch later) and
/// without a database at all. Bounded by count and by frame bytes; older drawings are read
/// back from the database.
final class DrawingShelf: Sendable {
    struct Configuration: Sendable {
        var maxDrawings = 256
        /// Frame bytes kept in all (a turn's log is at most `maxTurnLogBytes`, 1 MiB).
        var maxBytes = 16 << 20
    }

    private struct State {
        var logs: [DrawingID: StrokeLog] = [:]
        /// Who drew each shelved drawing, for reports naming it by id.
        var drawers: [DrawingID: (id: PlayerID, name: String)] = [:]
        /// Drawings a moderator removed while this process runs: never served again, even
        /// when their turn reaches the database after the removal (the store keeps its own
        /// tombstones for that too).
        var removed: Set<DrawingID> = []
        /// Oldest first, for eviction.
        var order: [DrawingID] = []
        var bytes = 0
    }

    private let configuration: Configuration
    private let state = Mutex(State())

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Keeps a finished turn's log when it has a drawing id.
    func keep(_ record: TurnRecord) {
        guard let id = record.drawing else { return }
        let size = Self.bytes(record.strokes)
        state.withLock { s in
            guard !s.removed.contains(id), s.logs.updateValue(record.strokes, forKey: id) == nil else { return }
            s.drawers[id] = (record.drawer, record.drawerName)
            s.order.append(id)
            s.bytes += size
            while s.order.count > configuration.maxDrawings || (s.bytes > configuration.maxBytes && s.order.count > 1) {
                let oldest = s.order.removeFirst()
                s.drawers[oldest] = nil
                if let log = s.logs.removeValue(forKey: oldest) { s.bytes -= Self.bytes(log) }
            }
        }
    }

    func log(_ id: DrawingID) -> StrokeLog? {
        state.withLock { $0.logs[id] }
    }

    /// A shelved drawing's log and drawer, for a report naming it.
    func shelved(_ id: DrawingID) -> (log: StrokeLog, drawer: PlayerID, drawerName: String)? {
        state.withLock { s in
            guard let log = s.logs[id], let drawer = s.drawers[id] else { return nil }
            return (log, drawer.id, drawer.name)
        }
    }

    /// A moderator removed the drawing: forget it, and refuse it from now on.
    func remove(_ id: DrawingID) {
        state.withLock { s in
            s.removed.insert(id)
            s.drawers[id] = nil
            s.order.removeAll { $0 == id }
            if let log = s.logs.removeValue(forKey: id) { s.bytes -= Self.bytes(log) }
        }
    }

    func isRemoved(_ id: DrawingID) -> Bool {
        state.withLock { $0.removed.contains(id) }
    }

    private static func bytes(_ log: StrokeLog) -> Int {
        log.frames.reduce(64) { $0 + $1.bytes.count + 16 }
    }
}
