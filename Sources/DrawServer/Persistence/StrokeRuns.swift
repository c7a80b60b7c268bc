import Canvas
import NIOCore

/// Stroke frames packed (`PackedFrames`) per room and canvas generation as they come: each
/// run is one stroke row. The persistence writer packs frames with it as they are queued;
/// both stores write its runs as rows.
struct StrokeRuns: Sendable {
    struct Run: Sendable {
        var generation: Int
        /// The first frame's time: the row's `at_ms`.
        var firstAt: Int
        var frames = 0
        var packed = ByteBuffer()
        /// Order of the runs' starts across rooms: which are oldest.
        var sequence = 0

        mutating func append(_ frame: StrokeLog.Frame) {
            PackedFrames.append(frame, to: &packed)
            frames += 1
        }
    }

    /// Each room's runs, in arrival order.
    private var byRoom: [String: [Run]] = [:]
    /// The run frames were last added to, out of the dictionary: a drawer's frames come in
    /// runs of one room, so a frame of the same room and generation costs no lookup.
    private var current: (room: String, run: Run)?
    private var nextSequence = 0
    /// Frames held, in every run.
    private(set) var frames = 0

    var isEmpty: Bool { frames == 0 }

    /// The rooms with frames held.
    var rooms: Set<String> {
        var rooms = Set(byRoom.keys)
        if let current { rooms.insert(current.room) }
        return rooms
    }

    mutating func add(_ frame: StrokeLog.Frame, room: String, generation: Int) {
        frames += 1
        if current?.room == room, current?.run.generation == generation {
            current?.run.append(frame)  // in place: the optional is not copied
            return
        }
        park()
        var run = Run(generation: generation, firstAt: frame.at, sequence: nextSequence)
        // Back to a room seen earlier, same generation: go on with its run.
        if let last = byRoom[room]?.last, last.generation == generation {
            run = last
            byRoom[room]?.removeLast()
        } else {
            nextSequence += 1
        }
        run.append(frame)
        current = (room, run)
    }

    /// Whether `room` has frames here.
    func contains(room: String) -> Bool { current?.room == room || byRoom[room] != nil }

    /// Takes `room`'s runs out, oldest first.
    mutating func take(room: String) -> [Run] {
        park()
        let runs = byRoom.removeValue(forKey: room) ?? []
        frames -= runs.reduce(0) { $0 + $1.frames }
        return runs
    }

    /// Adds `runs`, already packed, after what `room` has.
    mutating func add(runs: [Run], room: String) {
        park()
        for var run in runs {
            frames += run.frames
            run.sequence = nextSequence
            nextSequence += 1
            byRoom[room, default: []].append(run)
        }
    }

    /// Takes every room's runs out, rooms in code order.
    mutating func takeAll() -> [(room: String, runs: [Run])] {
        park()
        defer { self = StrokeRuns() }
        return byRoom.sorted { $0.key < $1.key }.map { (room: $0.key, runs: $0.value) }
    }

    /// Drops the frames of the rooms `isRemoved` names.
    mutating func removeRooms(where isRemoved: (String) -> Bool) {
        for room in rooms where isRemoved(room) { _ = take(room: room) }
    }

    /// Puts the current run back with its room's.
    private mutating func park() {
        guard let (room, run) = current else { return }
        byRoom[room, default: []].append(run)
        current = nil
    }
}
