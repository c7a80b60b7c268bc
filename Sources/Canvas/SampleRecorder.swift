/// Turns a timeline of operations into stroke-log frames the way a browser client sends them:
/// pointer samples are batched and flushed about every `flushInterval` ms, and a stroke's
/// END or a FILL/UNDO goes out at once.
struct SampleRecorder {
    var size: CanvasSize
    /// Milliseconds since the turn started.
    private(set) var now: Double = 0
    private var pending: [DrawOperation] = []
    private var pendingPoints: [Point] = []
    private var lastFlush: Double = 0
    private var cursor = StrokeCursor()
    private(set) var frames: [StrokeLog.Frame] = []
    let flushInterval: Double = 33

    init(size: CanvasSize) {
        self.size = size
    }

    mutating func wait(_ milliseconds: Double) {
        now += milliseconds
    }

    /// A whole stroke: pointer down, samples every `1000 / rate` ms, pointer up.
    mutating func stroke(tool: Tool = .pen, color: RGB, width: UInt8, points: [Point], rate: Double) {
        guard let first = points.first else { return }
        pending.append(.begin(tool: tool, color: color, width: width, at: first))
        flush()
        for point in points.dropFirst() {
            now += 1000 / rate
            pendingPoints.append(point)
            if now - lastFlush >= flushInterval {
                flush()
            }
        }
        queuePoints()
        pending.append(.end)
        flush()
    }

    /// A single-operation action such as FILL or UNDO, sent on its own.
    mutating func action(_ op: DrawOperation) {
        pending.append(op)
        flush()
    }

    /// Moves the sampled points into the pending operations, before whatever comes next.
    private mutating func queuePoints() {
        guard !pendingPoints.isEmpty else { return }
        pending.append(.points(pendingPoints))
        pendingPoints = []
    }

    private mutating func flush() {
        queuePoints()
        guard !pending.isEmpty else { return }
        // Keep `at` non-decreasing as the log requires, whatever the rounding.
        let at = max(Int(now.rounded()), frames.last?.at ?? 0)
        frames.append(StrokeLog.Frame(at: at, bytes: FrameCodec.encode(pending, cursor: &cursor)))
        pending = []
        lastFlush = now
    }
}
