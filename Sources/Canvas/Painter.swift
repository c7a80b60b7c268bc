/// Draws drawing items onto a raster; owns the one coverage mask reused for every stroke.
///
/// Both the one-shot `Renderer` and the incremental `LiveCanvas` go through `beginStroke` /
/// `extendStroke`, so a stroke built point by point covers exactly the pixels, with exactly
/// the values, of the same stroke drawn at once.
struct Painter: Sendable {
    private(set) var mask: CoverageMask

    init(size: CanvasSize) {
        mask = CoverageMask(width: size.width, height: size.height)
    }

    /// Draws a finished item in one go.
    mutating func draw(_ item: DrawingItem, on raster: inout Raster) {
        switch item {
        case let .stroke(stroke):
            draw(stroke, on: &raster)
        case let .fill(color, point):
            raster.floodFill(at: point, with: color)
        }
    }

    /// Rasterises the whole stroke into the mask and composites it once.
    mutating func draw(_ stroke: Stroke, on raster: inout Raster) {
        var dirty = beginStroke(stroke)
        var previous = stroke.points[0]
        for point in stroke.points.dropFirst() {
            dirty.formUnion(extendStroke(stroke, from: previous, to: point))
            previous = point
        }
        if let dirty {
            raster.composite(mask, in: dirty, color: stroke.paint)
        }
        mask.reset()
    }

    /// Starts a stroke's coverage with the disc at its first point (a lone BEGIN is a dot).
    mutating func beginStroke(_ stroke: Stroke) -> PixelRect? {
        mask.reset()
        let first = stroke.points[0]
        return mask.addSegment(from: first, to: first, radius: stroke.radius)
    }

    /// Adds the segment to `point`; repeated points add nothing (their disc is already there).
    mutating func extendStroke(_ stroke: Stroke, from previous: Point, to point: Point) -> PixelRect? {
        guard point != previous else { return nil }
        return mask.addSegment(from: previous, to: point, radius: stroke.radius)
    }

    /// Forgets the current stroke's coverage.
    mutating func finishStroke() {
        mask.reset()
    }
}
