/// One protocol operation (section 5.2).
///
/// POINTS are stored as ABSOLUTE positions: the decoder resolves the wire deltas so that
/// operations can be reordered, compacted and rendered without carrying a cursor around.
public enum DrawOperation: Hashable, Sendable {
    case begin(tool: Tool, color: RGB, width: UInt8, at: Point)
    /// May hold more than 1024 points in memory; the encoder splits it into legal POINTS ops.
    case points([Point])
    case end
    case fill(color: RGB, at: Point)
    case undo
    case clear
    /// BEGIN whose first point has the width factor `pressure` / 255 (1...255).
    case pressureBegin(tool: Tool, color: RGB, width: UInt8, pressure: UInt8, at: Point)
    /// POINTS with a width factor per point; split like POINTS by the encoder.
    case pressurePoints([PressurePoint])
}

/// A point of a pen-pressure stroke: where, and its width factor `pressure` / 255 (1...255).
public struct PressurePoint: Hashable, Sendable {
    public var point: Point
    public var pressure: UInt8

    public init(_ point: Point, pressure: UInt8) {
        self.point = point
        self.pressure = pressure
    }
}
