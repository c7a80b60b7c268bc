/// How much ink operations put on a canvas, in pixels: the area a stroke sweeps (each
/// segment's length times the width, plus a width-by-width dot for its first point) and
/// the whole canvas for a fill.
///
/// It estimates what rendering costs, so it ignores clipping (a stroke far off the canvas
/// still counts) and errs on the renderer's side: a drawing's ink bounds the work of
/// drawing it from scratch, whatever coordinates or widths a client sends.
struct InkMeter: FrameVisitor {
    let canvasArea: Int
    /// The width of the open stroke, if one is open.
    private var width: Int
    private var last: Point
    private(set) var total = 0

    init(canvas: CanvasSize, openWidth: UInt8?, last: Point) {
        canvasArea = canvas.width * canvas.height
        width = Int(openWidth ?? 0)
        self.last = last
    }

    /// The ink of one segment of a stroke of `width`.
    static func segment(from a: Point, to b: Point, width: Int) -> Int {
        let dx = Double(Int64(b.x) - Int64(a.x))
        let dy = Double(Int64(b.y) - Int64(a.y))
        return Int(((dx * dx + dy * dy).squareRoot() * Double(width)).rounded(.up))
    }

    /// The dot a stroke's first point makes.
    static func dot(width: Int) -> Int { width * width }

    /// The ink of a whole stroke.
    static func stroke(_ stroke: Stroke) -> Int {
        let width = Int(stroke.width)
        var total = dot(width: width)
        var previous = stroke.points[0]
        for point in stroke.points.dropFirst() {
            total += segment(from: previous, to: point, width: width)
            previous = point
        }
        return total
    }

    /// Pen pressure only narrows a stroke: its ink is counted at full width.
    mutating func begin(tool: Tool, color: RGB, width: UInt8, pressure: UInt8?, at point: Point) {
        self.width = Int(width)
        last = point
        total += Self.dot(width: self.width)
    }

    func pointsStart(count: Int, pressure: Bool) {}

    mutating func point(_ point: Point, pressure: UInt8?) {
        total += Self.segment(from: last, to: point, width: width)
        last = point
    }

    func pointsEnd() {}
    func end() {}

    mutating func fill(color: RGB, at point: Point) {
        total += canvasArea
    }

    func undo() {}
    func clear() {}
}
