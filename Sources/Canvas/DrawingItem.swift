/// Something UNDO can take off the canvas: a finished stroke or a fill.
enum DrawingItem: Hashable, Sendable {
    case stroke(Stroke)
    case fill(color: RGB, at: Point)

    var pointCount: Int {
        switch self {
        case let .stroke(stroke): stroke.points.count
        case .fill: 0
        }
    }

    func appendOperations(to ops: inout [DrawOperation]) {
        switch self {
        case let .stroke(stroke): stroke.appendOperations(to: &ops, closed: true)
        case let .fill(color, point): ops.append(.fill(color: color, at: point))
        }
    }
}
