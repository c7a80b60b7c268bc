/// The current drawing of a turn, kept as what is still on the canvas.
///
/// UNDO only ever removes the most recent item and CLEAR removes everything, so the canvas
/// is fully described by a stack of the strokes and fills since the last CLEAR: undone items
/// and everything before a CLEAR are dropped as soon as they stop mattering, which keeps
/// memory bounded by what is visible and makes compaction a plain walk of the stack.
/// Protocol rules: BEGIN, FILL, UNDO and CLEAR while a stroke is open end it first; UNDO
/// removes the most recent stroke or fill still on the canvas (nothing after a CLEAR until
/// something new is drawn); CLEAR wipes.
public struct Drawing: Sendable {
    /// Fixed for the drawing's life: the decoder's point limits and fills depend on it.
    public let size: CanvasSize
    /// Where decoding of the next frame starts; equals the decoder's cursor after each frame.
    public private(set) var cursor = StrokeCursor()
    /// Finished strokes and fills since the last CLEAR, oldest first.
    private(set) var items: [DrawingItem] = []
    /// The stroke still receiving points; always the most recent item when present.
    private(set) var openStroke: Stroke?
    /// Points held by visible strokes (open one included), a proxy for memory and render cost.
    public private(set) var pointCount = 0
    /// Fills on the canvas; each can repaint the whole canvas when rendered.
    public private(set) var fillCount = 0
    /// The ink on the canvas in pixels (see `InkMeter`): bounds what rendering it costs.
    public private(set) var ink = 0

    /// An empty (white) drawing.
    public init(size: CanvasSize) {
        self.size = size
    }

    /// Decodes and applies a frame atomically: a rejected frame changes nothing.
    public mutating func apply(frame: UnsafeRawBufferPointer) throws(FrameError) -> FrameSummary {
        var probe = cursor
        let summary = try FrameCodec.validate(frame, size: size, cursor: &probe)
        applyValidated(frame)
        return summary
    }

    /// Decodes and applies a frame atomically: a rejected frame changes nothing.
    public mutating func apply(frame: [UInt8]) throws(FrameError) -> FrameSummary {
        var probe = cursor
        let summary = try FrameCodec.validate(frame, size: size, cursor: &probe)
        frame.withUnsafeBytes { applyValidated($0) }
        return summary
    }

    /// The second pass, straight into the stack with no intermediate operation arrays. It
    /// cannot fail: the same immutable bytes just passed validation.
    private mutating func applyValidated(_ frame: UnsafeRawBufferPointer) {
        var scanCursor = cursor
        _ = try? FrameScanner.scan(frame, size: size, cursor: &scanCursor, visitor: &self)
    }

    /// Applies one in-memory operation with the same semantics as a decoded one.
    ///
    /// Operations the decoder would reject are made harmless instead of trapping: POINTS and
    /// END with no open stroke and FILL outside the canvas are ignored, widths are clamped to
    /// 1...64 and points to `[-w, 2w) x [-h, 2h)`, so `compactedFrames()` always decodes.
    public mutating func apply(_ op: DrawOperation) {
        let limits = PointLimits(size: size)
        switch op {
        case let .begin(tool, color, width, point):
            let legalWidth = min(max(width, FrameCodec.widthRange.lowerBound), FrameCodec.widthRange.upperBound)
            begin(tool: tool, color: color, width: legalWidth, pressure: nil, at: limits.clamped(point))
        case let .pressureBegin(tool, color, width, pressure, point):
            let legalWidth = min(max(width, FrameCodec.widthRange.lowerBound), FrameCodec.widthRange.upperBound)
            begin(tool: tool, color: color, width: legalWidth, pressure: max(pressure, 1), at: limits.clamped(point))
        case let .points(points):
            guard openStroke != nil else { return }
            for point in points {
                self.point(limits.clamped(point), pressure: nil)
            }
        case let .pressurePoints(points):
            guard openStroke != nil else { return }
            for point in points {
                self.point(limits.clamped(point.point), pressure: max(point.pressure, 1))
            }
        case .end:
            guard openStroke != nil else { return }
            end()
        case let .fill(color, point):
            guard point.x >= 0, point.y >= 0, Int(point.x) < size.width, Int(point.y) < size.height else { return }
            fill(color: color, at: point)
        case .undo:
            undo()
        case .clear:
            clear()
        }
    }

    /// A white canvas for a new turn.
    public mutating func reset() {
        self = Drawing(size: size)
    }

    /// The ink a valid frame would add, measured before applying it (ignoring any UNDO or
    /// CLEAR in it, which only take ink away); `Int.max` for a frame that does not decode.
    public func inkCost(of frame: UnsafeRawBufferPointer) -> Int {
        var meter = InkMeter(canvas: size, openWidth: openStroke?.width, last: cursor.last)
        var scanCursor = cursor
        guard (try? FrameScanner.scan(frame, size: size, cursor: &scanCursor, visitor: &meter)) != nil else { return .max }
        return meter.total
    }

    /// Strokes and fills on the canvas, the open stroke included.
    public var visibleItemCount: Int { items.count + (openStroke == nil ? 0 : 1) }

    /// Whether the canvas is white: nothing drawn, or everything undone or cleared.
    public var isEmpty: Bool { items.isEmpty && openStroke == nil }

    /// Moves the open stroke, if any, onto the stack of finished items.
    private mutating func closeOpenStroke() {
        if let stroke = openStroke {
            items.append(.stroke(stroke))
            openStroke = nil
        }
        cursor.isOpen = false
    }
}

/// Lets the frame scanner apply a validated frame straight into the drawing, without
/// building `DrawOperation`s; `apply(_:)` funnels into the same methods.
extension Drawing: FrameVisitor {
    mutating func begin(tool: Tool, color: RGB, width: UInt8, pressure: UInt8?, at point: Point) {
        closeOpenStroke()
        openStroke = Stroke(tool: tool, color: color, width: width, points: [point], pressures: pressure.map { [$0] })
        pointCount += 1
        ink += InkMeter.dot(width: Int(width))
        cursor.isOpen = true
        cursor.last = point
    }

    func pointsStart(count: Int, pressure: Bool) {}

    mutating func point(_ point: Point, pressure: UInt8?) {
        if let stroke = openStroke, let previous = stroke.points.last {
            ink += InkMeter.segment(from: previous, to: point, width: Int(stroke.width))
        }
        openStroke?.append(point, pressure: pressure)
        pointCount += 1
        cursor.last = point
    }

    func pointsEnd() {}

    mutating func end() {
        closeOpenStroke()
    }

    mutating func fill(color: RGB, at point: Point) {
        closeOpenStroke()
        items.append(.fill(color: color, at: point))
        fillCount += 1
        ink += size.width * size.height
    }

    mutating func undo() {
        closeOpenStroke()
        if let removed = items.popLast() {
            pointCount -= removed.pointCount
            switch removed {
            case .fill:
                fillCount -= 1
                ink -= size.width * size.height
            case .stroke(let stroke):
                ink -= InkMeter.stroke(stroke)
            }
        }
    }

    mutating func clear() {
        closeOpenStroke()
        items.removeAll()
        pointCount = 0
        fillCount = 0
        ink = 0
    }
}
