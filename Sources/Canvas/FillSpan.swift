/// A run of columns `x1...x2` on row `y` to scan, reached by moving `dy` (+1 down, -1 up).
struct FillSpan {
    var x1: Int
    var x2: Int
    var y: Int
    var dy: Int
}

extension [FillSpan] {
    /// Pushes a span unless its row is off the raster.
    @inline(__always)
    mutating func push(_ x1: Int, _ x2: Int, _ y: Int, _ dy: Int, height: Int) {
        if y >= 0, y < height {
            append(FillSpan(x1: x1, x2: x2, y: y, dy: dy))
        }
    }
}
