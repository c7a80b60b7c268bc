/// One stroke of a drawing: a polyline of absolute points, the first being BEGIN's point.
struct Stroke: Hashable, Sendable {
    var tool: Tool
    var color: RGB
    var width: UInt8
    /// Never empty: BEGIN always supplies the first point.
    var points: [Point]
    /// Pen pressure: each point's width factor (1...255, 255 = `width`), aligned with
    /// `points`; nil for a stroke without pressure, whose every point has the full width.
    var pressures: [UInt8]?

    init(tool: Tool, color: RGB, width: UInt8, points: [Point], pressures: [UInt8]? = nil) {
        self.tool = tool
        self.color = color
        self.width = width
        self.points = points
        self.pressures = pressures
    }

    /// What the stroke puts on the canvas: the eraser paints white whatever colour it carries.
    var paint: RGB { tool == .eraser ? .white : color }

    /// Half the width: the distance from the centre line where coverage falls to one half.
    var radius: Double { Double(width) / 2 }

    /// The radius at each point of a stroke with pressure: `width × p / 255` wide, at
    /// least one pixel (docs/PROTOCOL.md 12.4). Nil without pressure (`radius` everywhere).
    var radii: [Double]? {
        pressures.map { factors in factors.map { Self.radius(width: width, pressure: $0) } }
    }

    static func radius(width: UInt8, pressure: UInt8) -> Double {
        max(0.5, Double(width) * Double(pressure) / 255 / 2)
    }

    /// Adds a point; a pressure (or none, the full width) for a stroke that has or gets them.
    mutating func append(_ point: Point, pressure: UInt8?) {
        if let pressure, pressures == nil {
            pressures = [UInt8](repeating: .max, count: points.count)
        }
        points.append(point)
        if pressures != nil { pressures?.append(pressure ?? .max) }
    }

    /// BEGIN (+ POINTS) (+ END when the stroke is finished): the stroke as protocol operations,
    /// their pen-pressure forms when it has pressure.
    func appendOperations(to ops: inout [DrawOperation], closed: Bool) {
        if let pressures {
            ops.append(.pressureBegin(tool: tool, color: color, width: width, pressure: pressures[0], at: points[0]))
            if points.count > 1 {
                ops.append(.pressurePoints(zip(points.dropFirst(), pressures.dropFirst()).map { PressurePoint($0, pressure: $1) }))
            }
        } else {
            ops.append(.begin(tool: tool, color: color, width: width, at: points[0]))
            if points.count > 1 {
                ops.append(.points(Array(points.dropFirst())))
            }
        }
        if closed {
            ops.append(.end)
        }
    }
}
