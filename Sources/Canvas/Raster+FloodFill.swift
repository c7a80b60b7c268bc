extension Raster {
    /// Flood-fills the 4-connected region of the exact colour found at `point`.
    ///
    /// Span filling with an explicit stack (each entry a run of columns on one row and the
    /// direction it came from), so an 800x600 region needs no recursion, a small stack, and
    /// about two colour tests per pixel; each run is painted with one copy. A point off the raster, or a region already of
    /// `color`, is a no-op.
    public mutating func floodFill(at point: Point, with color: RGB) {
        let startX = Int(point.x)
        let startY = Int(point.y)
        guard startX >= 0, startY >= 0, startX < width, startY < height else { return }
        let target = pixel(x: startX, y: startY)
        guard target != color else { return }
        let width = width
        let height = height
        // One row of the fill colour, copied over each run instead of storing pixel by pixel.
        var pattern = [UInt8](repeating: color.r, count: width * 3)
        for index in stride(from: 0, to: pattern.count, by: 3) {
            pattern[index + 1] = color.g
            pattern[index + 2] = color.b
        }
        pattern.withUnsafeBufferPointer { pattern in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let region = FillRegion(buffer: buffer, pattern: pattern, target: target)
                var stack = [FillSpan(x1: startX, x2: startX, y: startY, dy: 1)]
                if startY > 0 {
                    stack.append(FillSpan(x1: startX, x2: startX, y: startY - 1, dy: -1))
                }
                while let span = stack.popLast() {
                    let y = span.y
                    let row = y * width
                    var x1 = span.x1
                    var x = x1
                    // Extend to the left of the span's start.
                    if region.inside(row + x) {
                        while x > 0, region.inside(row + x - 1) { x -= 1 }
                        if x < x1 {
                            region.paint(row + x, count: x1 - x)
                            stack.push(x, x1 - 1, y - span.dy, -span.dy, height: height)
                        }
                    }
                    while x1 <= span.x2 {
                        let runStart = x1
                        while x1 < width, region.inside(row + x1) { x1 += 1 }
                        region.paint(row + runStart, count: x1 - runStart)
                        if x1 > x {
                            stack.push(x, x1 - 1, y + span.dy, span.dy, height: height)
                        }
                        if x1 - 1 > span.x2 {
                            stack.push(span.x2 + 1, x1 - 1, y - span.dy, -span.dy, height: height)
                        }
                        x1 += 1
                        while x1 < span.x2, !region.inside(row + x1) { x1 += 1 }
                        x = x1
                    }
                }
            }
        }
    }
}
