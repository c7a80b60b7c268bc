/// A stroke log's operations, replayed step by step onto a `LiveCanvas`.
///
/// A step is one operation, or one point of a POINTS operation, so the frames of a time-lapse
/// can stop in the middle of a long POINTS.
struct TimelapseScript: Sendable {
    let size: CanvasSize
    let operations: [DrawOperation]
    /// Total steps: the time-lapse's unit of progress.
    let steps: Int

    /// Decodes every frame; a rejected one is reported with its line, as `StrokeLog.drawing()` does.
    init(_ log: StrokeLog) throws(StrokeLogError) {
        var cursor = StrokeCursor()
        var operations: [DrawOperation] = []
        for (index, frame) in log.frames.enumerated() {
            do {
                operations += try FrameCodec.decode(frame.bytes, size: log.size, cursor: &cursor)
            } catch {
                throw StrokeLogError(line: index + 2, message: "frame rejected: \(error)")
            }
        }
        size = log.size
        self.operations = operations
        steps = operations.reduce(0) { total, op in
            if case let .points(points) = op { return total + points.count }
            return total + 1
        }
    }

    /// Where a replay has got to.
    struct Position {
        var operation = 0
        /// Points of `operations[operation]` already applied when it is a POINTS.
        var point = 0
        var step = 0
    }

    /// Applies steps until `position.step` reaches `target`.
    func advance(_ canvas: inout LiveCanvas, _ position: inout Position, to target: Int) {
        while position.step < target, position.operation < operations.count {
            let op = operations[position.operation]
            if case let .points(points) = op {
                let take = min(points.count - position.point, target - position.step)
                if take > 0 {
                    canvas.apply(.points(Array(points[position.point..<(position.point + take)])))
                }
                position.point += take
                position.step += take
                if position.point >= points.count {
                    position.operation += 1
                    position.point = 0
                }
            } else {
                canvas.apply(op)
                position.step += 1
                position.operation += 1
            }
        }
    }
}
