/// Builds `DrawOperation`s (absolute points) from a scanned frame.
struct OperationCollector: FrameVisitor {
    var operations: [DrawOperation] = []
    private var pending: [Point] = []

    mutating func begin(tool: Tool, color: RGB, width: UInt8, at point: Point) {
        operations.append(.begin(tool: tool, color: color, width: width, at: point))
    }

    mutating func pointsStart(count: Int) {
        pending = []
        pending.reserveCapacity(count)
    }

    mutating func point(_ point: Point) {
        pending.append(point)
    }

    mutating func pointsEnd() {
        operations.append(.points(pending))
        pending = []
    }

    mutating func end() { operations.append(.end) }
    mutating func fill(color: RGB, at point: Point) { operations.append(.fill(color: color, at: point)) }
    mutating func undo() { operations.append(.undo) }
    mutating func clear() { operations.append(.clear) }
}
