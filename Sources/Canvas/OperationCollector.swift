/// Builds `DrawOperation`s (absolute points) from a scanned frame.
struct OperationCollector: FrameVisitor {
    var operations: [DrawOperation] = []
    private var pending: [Point] = []
    private var pendingPressure: [PressurePoint] = []
    private var pendingHasPressure = false

    mutating func begin(tool: Tool, color: RGB, width: UInt8, pressure: UInt8?, at point: Point) {
        if let pressure {
            operations.append(.pressureBegin(tool: tool, color: color, width: width, pressure: pressure, at: point))
        } else {
            operations.append(.begin(tool: tool, color: color, width: width, at: point))
        }
    }

    mutating func pointsStart(count: Int, pressure: Bool) {
        pendingHasPressure = pressure
        pending = []
        pendingPressure = []
        if pressure { pendingPressure.reserveCapacity(count) } else { pending.reserveCapacity(count) }
    }

    mutating func point(_ point: Point, pressure: UInt8?) {
        if let pressure {
            pendingPressure.append(PressurePoint(point, pressure: pressure))
        } else {
            pending.append(point)
        }
    }

    mutating func pointsEnd() {
        operations.append(pendingHasPressure ? .pressurePoints(pendingPressure) : .points(pending))
        pending = []
        pendingPressure = []
    }

    mutating func end() { operations.append(.end) }
    mutating func fill(color: RGB, at point: Point) { operations.append(.fill(color: color, at: point)) }
    mutating func undo() { operations.append(.undo) }
    mutating func clear() { operations.append(.clear) }
}
