/// The legal area for stroke points, `[-w, 2w) x [-h, 2h)`, precomputed once per frame.
struct PointLimits {
    let minX: Int
    let maxX: Int
    let minY: Int
    let maxY: Int

    init(size: CanvasSize) {
        minX = -size.width
        maxX = 2 * size.width
        minY = -size.height
        maxY = 2 * size.height
    }

    @inline(__always)
    func contains(_ point: Point) -> Bool {
        let x = Int(point.x)
        let y = Int(point.y)
        return x >= minX && x < maxX && y >= minY && y < maxY
    }

    /// The nearest legal point; used where in-memory operations bypass the decoder.
    func clamped(_ point: Point) -> Point {
        guard maxX > minX, maxY > minY else { return Point(x: 0, y: 0) }
        return Point(
            x: Int32(clamping: Swift.min(Swift.max(Int(point.x), minX), maxX - 1)),
            y: Int32(clamping: Swift.min(Swift.max(Int(point.y), minY), maxY - 1))
        )
    }
}
