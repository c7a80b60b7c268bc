/// One stroke of a drawing: a polyline of absolute points, the first being BEGIN's point.
struct Stroke: Hashable, Sendable {
    var tool: Tool
    var color: RGB
    var width: UInt8
    /// Never empty: BEGIN always supplies the first point.
    var points: [Point]

    /// What the stroke puts on the canvas: the eraser paints white whatever colour it carries.
    var paint: RGB { tool == .eraser ? .white : color }

    /// Half the width: the distance from the centre line where coverage falls to one half.
    var radius: Double { Double(width) / 2 }

    /// BEGIN (+ POINTS) (+ END when the stroke is finished): the stroke as protocol operations.
    func appendOperations(to ops: inout [DrawOperation], closed: Bool) {
        ops.append(.begin(tool: tool, color: color, width: width, at: points[0]))
        if points.count > 1 {
            ops.append(.points(Array(points.dropFirst())))
        }
        if closed {
            ops.append(.end)
        }
    }
}
