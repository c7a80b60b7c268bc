/// A stroke log's operations, replayed step by step onto a `LiveCanvas`.
///
/// A step is one operation, or one point of a POINTS (or PRESSURE_POINTS) operation, so the
/// frames of a time-lapse can stop in the middle of a long POINTS.
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
            switch op {
            case let .points(points): total + points.count
            case let .pressurePoints(points): total + points.count
            default: total + 1
            }
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
            let count: Int? = switch op {
            case let .points(points): points.count
            case let .pressurePoints(points): points.count
            default: nil
            }
            if let count {
                let take = min(count - position.point, target - position.step)
                if take > 0 {
                    let run = position.point..<(position.point + take)
                    switch op {
                    case let .points(points): canvas.apply(.points(Array(points[run])))
                    case let .pressurePoints(points): canvas.apply(.pressurePoints(Array(points[run])))
                    default: break
                    }
                }
                position.point += take
                position.step += take
                if position.point >= count {
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
