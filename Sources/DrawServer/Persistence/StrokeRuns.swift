import Canvas
import NIOCore

/// A batch's stroke frames, packed (`PackedFrames`) per room and canvas generation as they
/// come: each run is one stroke row. Both stores build their rows with it.
struct StrokeRuns {
    struct Run {
        var generation: Int
        /// The first frame's time: the row's `at_ms`.
        var firstAt: Int
        var packed = ByteBuffer()

        mutating func append(_ frame: StrokeLog.Frame) { PackedFrames.append(frame, to: &packed) }
    }

    /// Each room's runs, in arrival order.
    private var byRoom: [String: [Run]] = [:]
    /// The run frames were last added to, out of the dictionary: a drawer's frames come in
    /// runs of one room, so a frame of the same room and generation costs no lookup.
    private var current: (room: String, run: Run)?

    mutating func add(_ frame: StrokeLog.Frame, room: String, generation: Int) {
        if current?.room == room, current?.run.generation == generation {
            current?.run.append(frame)  // in place: the optional is not copied
            return
        }
        park()
        var run = Run(generation: generation, firstAt: frame.at)
        // Back to a room seen earlier in the batch, same generation: go on with its run.
        if let last = byRoom[room]?.last, last.generation == generation {
            run = last
            byRoom[room]?.removeLast()
        }
        run.append(frame)
        current = (room, run)
    }

    /// Takes `room`'s runs out, oldest first.
    mutating func take(room: String) -> [Run] {
        park()
        return byRoom.removeValue(forKey: room) ?? []
    }

    /// Takes every room's runs out, rooms in code order.
    mutating func takeAll() -> [(room: String, runs: [Run])] {
        park()
        defer { byRoom = [:] }
        return byRoom.sorted { $0.key < $1.key }.map { (room: $0.key, runs: $0.value) }
    }

    /// Puts the current run back with its room's.
    private mutating func park() {
        guard let (room, run) = current else { return }
        byRoom[room, default: []].append(run)
        current = nil
    }
}
