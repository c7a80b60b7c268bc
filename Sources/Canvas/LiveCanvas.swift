/// A raster kept in step with a `Drawing`, for serving the current canvas without re-rendering.
///
/// Appending only touches affected pixels: a stroke's coverage grows in a mask and its
/// pixels are recomposited from a snapshot taken at BEGIN (so the bytes equal a one-shot
/// render), a fill floods in place. UNDO of the open stroke restores that snapshot; UNDO of
/// an older item re-renders from the nearest checkpoint, a raster snapshot taken every
/// `checkpointInterval` finished items (the newest `maxCheckpoints` are kept, bounding memory
/// to a few rasters), instead of from the first operation.
public struct LiveCanvas: Sendable {
    /// Finished items between raster snapshots: an UNDO re-renders at most this many items.
    public static let checkpointInterval = 16
    /// Snapshots kept; older ones are rebuilt on the way when an UNDO reaches below them.
    public static let maxCheckpoints = 3

    /// The operations behind the pixels; read-only so the two cannot drift apart.
    public private(set) var drawing: Drawing
    /// The current pixels, always equal to `Renderer.render(drawing)`.
    public private(set) var raster: Raster
    private var painter: Painter
    /// The raster as it was before the open stroke; `nil` when no stroke is open.
    private var strokeBase: Raster?
    /// Snapshots in ascending `itemCount` order, all at or below the current item count.
    private var checkpoints: [Checkpoint] = []
    /// Items repainted by the last UNDO (0 when it restored the open stroke's snapshot): the
    /// cost the checkpoints bound, exposed for tests and metrics.
    private(set) var redrawnItems = 0

    private struct Checkpoint: Sendable {
        let itemCount: Int
        let raster: Raster
    }

    /// A white canvas.
    public init(size: CanvasSize) {
        self.init(drawing: Drawing(size: size))
    }

    /// Renders `drawing` (an open stroke stays open and keeps growing with live points).
    public init(drawing: Drawing) {
        self.drawing = drawing
        raster = Raster(size: drawing.size)
        painter = Painter(size: drawing.size)
        redraw(from: nil)
        startStroke()
    }

    /// Decodes and applies a frame atomically (all or nothing).
    public mutating func apply(frame: [UInt8]) throws(FrameError) -> FrameSummary {
        var cursor = drawing.cursor
        let decoded = try FrameCodec.decodeWithSummary(frame, size: drawing.size, cursor: &cursor)
        for op in decoded.operations {
            apply(op)
        }
        return decoded.summary
    }

    /// Applies one operation with `Drawing.apply(_:)` semantics, updating only what changes.
    public mutating func apply(_ op: DrawOperation) {
        let wasOpen = drawing.openStroke != nil
        let itemsBefore = drawing.items.count
        let pointsBefore = drawing.openStroke?.points.count ?? 0
        drawing.apply(op)
        switch op {
        case .begin, .pressureBegin:
            if wasOpen { finishStroke() }
            startStroke()
        case .points, .pressurePoints:
            guard wasOpen, let stroke = drawing.openStroke else { return }
            extendStroke(stroke, from: pointsBefore)
        case .end:
            if wasOpen { finishStroke() }
        case let .fill(color, point):
            if wasOpen { finishStroke() }
            if drawing.items.count > itemsBefore + (wasOpen ? 1 : 0) {
                raster.floodFill(at: point, with: color)
                noteFinishedItem(count: drawing.items.count)
            }
        case .undo:
            let base = strokeBase
            dropStroke()
            redrawnItems = 0
            if wasOpen, let base {
                raster = base
            } else if wasOpen || itemsBefore > 0 {
                redraw(from: checkpoints.last { $0.itemCount <= drawing.items.count })
            }
        case .clear:
            dropStroke()
            checkpoints.removeAll()
            raster.clear()
        }
    }

    /// A white canvas for a new turn.
    public mutating func reset() {
        dropStroke()
        checkpoints.removeAll()
        drawing.reset()
        raster.clear()
    }

    /// Paints the open stroke so far and remembers what was under it.
    private mutating func startStroke() {
        guard let stroke = drawing.openStroke else { return }
        strokeBase = raster
        if let dirty = painter.beginStroke(stroke) {
            raster.composite(painter.mask, in: dirty, color: stroke.paint, base: strokeBase)
        }
    }

    /// Adds the points from index `start` on to the open stroke's coverage and recomposites.
    private mutating func extendStroke(_ stroke: Stroke, from start: Int) {
        if let dirty = painter.extendStroke(stroke, from: start) {
            raster.composite(painter.mask, in: dirty, color: stroke.paint, base: strokeBase)
        }
    }

    /// The open stroke became a finished item; its pixels are already final.
    private mutating func finishStroke() {
        dropStroke()
        noteFinishedItem(count: drawing.items.count)
    }

    private mutating func dropStroke() {
        strokeBase = nil
        painter.finishStroke()
    }

    /// Takes a snapshot when the finished-item count reaches a multiple of the interval.
    private mutating func noteFinishedItem(count: Int) {
        guard count > 0, count % Self.checkpointInterval == 0 else { return }
        checkpoints.removeAll { $0.itemCount >= count }
        checkpoints.append(Checkpoint(itemCount: count, raster: raster))
        if checkpoints.count > Self.maxCheckpoints {
            checkpoints.removeFirst(checkpoints.count - Self.maxCheckpoints)
        }
    }

    /// Re-renders the finished items above `checkpoint` (white when `nil`), dropping snapshots
    /// of items that no longer exist and re-taking snapshots on the way.
    private mutating func redraw(from checkpoint: Checkpoint?) {
        let items = drawing.items
        checkpoints.removeAll { $0.itemCount > items.count }
        raster = checkpoint?.raster ?? Raster(size: drawing.size)
        var index = checkpoint?.itemCount ?? 0
        redrawnItems = items.count - index
        while index < items.count {
            painter.draw(items[index], on: &raster)
            index += 1
            noteFinishedItem(count: index)
        }
    }
}
