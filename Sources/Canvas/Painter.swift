/// Draws drawing items onto a raster; owns the one coverage mask reused for every stroke.
///
/// The one-shot `Renderer` and the incremental `LiveCanvas` add the same capsules (the disc
/// at the first point, then each segment between distinct points) to a max-combined mask, so
/// a stroke built point by point gets exactly the coverage of the same stroke drawn at once.
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
        mask.reset()
        if let dirty = add(stroke, from: 0, startCap: true) {
            raster.composite(mask, in: dirty, color: stroke.paint)
        }
        mask.reset()
    }

    /// Starts a stroke's coverage with what it has so far (a lone BEGIN is a dot).
    mutating func beginStroke(_ stroke: Stroke) -> PixelRect? {
        mask.reset()
        return add(stroke, from: 0, startCap: true)
    }

    /// Adds the segments from `points[start - 1]` on: the new points of a live stroke.
    mutating func extendStroke(_ stroke: Stroke, from start: Int) -> PixelRect? {
        guard start > 0, start < stroke.points.count else { return nil }
        return add(stroke, from: start - 1, startCap: false)
    }

    /// The stroke's capsules from point `first` on: of one width, or tapered between the
    /// widths of its points when it has pen pressure.
    private mutating func add(_ stroke: Stroke, from first: Int, startCap: Bool) -> PixelRect? {
        if let radii = stroke.radii {
            return mask.addTaperedPolyline(stroke.points[first...], radii: radii[first...], startCap: startCap)
        }
        return mask.addPolyline(stroke.points[first...], radius: stroke.radius, startCap: startCap)
    }

    /// Forgets the current stroke's coverage.
    mutating func finishStroke() {
        mask.reset()
    }
}
