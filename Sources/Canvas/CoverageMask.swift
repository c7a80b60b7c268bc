/// Per-pixel coverage (0...255) of one stroke, accumulated as the union (max) over its segments.
///
/// A stroke is composited once from its mask, so joints where segments overlap are never
/// darkened twice and consecutive segments leave no gaps. Coverage is
/// `clamp(r + 0.5 - d, 0, 1)` where `d` is the exact distance from the pixel centre to the
/// segment: a one-pixel linear edge. Rows are handled as spans: pixels certainly inside
/// (`d <= r - 0.5`) are set to 255 without any distance maths, and `sqrt` is only evaluated
/// in the thin edge band, which keeps thick strokes and huge off-canvas segments cheap.
/// The mask is canvas-sized and kept zero outside `dirty`, so reuse costs only the dirty area.
struct CoverageMask: Sendable {
    let width: Int
    let height: Int
    private(set) var alpha: [UInt8]
    /// The rows that may be non-zero, and on each row the columns `rowStart[y]...rowEnd[y]`
    /// (empty when start > end): a long curvy stroke touches far fewer pixels than its box.
    private(set) var dirty: PixelRect?
    private(set) var rowStart: [Int]
    private(set) var rowEnd: [Int]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        alpha = [UInt8](repeating: 0, count: self.width * self.height)
        rowStart = [Int](repeating: Int.max, count: self.height)
        rowEnd = [Int](repeating: -1, count: self.height)
    }

    /// Zeroes what was touched, leaving the mask ready for the next stroke.
    mutating func reset() {
        guard let rect = dirty else { return }
        let width = width
        alpha.withUnsafeMutableBufferPointer { mask in
            for y in rect.minY...rect.maxY where rowStart[y] <= rowEnd[y] {
                let row = y * width
                mask[(row + rowStart[y])...(row + rowEnd[y])].update(repeating: 0)
                rowStart[y] = Int.max
                rowEnd[y] = -1
            }
        }
        dirty = nil
    }

    /// Adds the capsule around segment `a`-`b` (a disc when `a == b`) of the given radius and
    /// returns the rectangle of pixels whose coverage may have risen (`nil`: all off-canvas).
    @discardableResult
    mutating func addSegment(from a: Point, to b: Point, radius: Double) -> PixelRect? {
        let segment = Segment(a: a, b: b)
        let outer = radius + 0.5
        let inner = radius - 0.5
        let top = max(0.0, (min(segment.ay, segment.by) - outer).rounded(.up))
        let bottom = min(Double(height - 1), (max(segment.ay, segment.by) + outer).rounded(.down))
        guard top <= bottom else { return nil }
        let width = width
        var touched: PixelRect?
        alpha.withUnsafeMutableBufferPointer { mask in
            for y in Int(top)...Int(bottom) {
                let fy = Double(y)
                guard let (lo, hi) = segment.span(y: fy, radius: outer) else { continue }
                let x0 = Int(max(0.0, lo.rounded(.up)))
                let x1 = Int(min(Double(width - 1), hi.rounded(.down)))
                guard x0 <= x1 else { continue }
                // The full-coverage run; empty (innerStart > innerEnd) when there is none.
                var innerStart = x1 + 1
                var innerEnd = x1
                if inner > 0, let (ilo, ihi) = segment.span(y: fy, radius: inner) {
                    let start = Int(max(Double(x0), ilo.rounded(.up)))
                    let end = Int(min(Double(x1), ihi.rounded(.down)))
                    if start <= end {
                        innerStart = start
                        innerEnd = end
                    }
                }
                let row = y * width
                var x = x0
                while x < innerStart {
                    if mask[row + x] != 255 {
                        let value = segment.coverage(x: Double(x), y: fy, outer: outer)
                        if value > mask[row + x] { mask[row + x] = value }
                    }
                    x += 1
                }
                while x <= innerEnd {
                    mask[row + x] = 255
                    x += 1
                }
                while x <= x1 {
                    if mask[row + x] != 255 {
                        let value = segment.coverage(x: Double(x), y: fy, outer: outer)
                        if value > mask[row + x] { mask[row + x] = value }
                    }
                    x += 1
                }
                touched.formUnion(PixelRect(minX: x0, minY: y, maxX: x1, maxY: y))
                rowStart[y] = min(rowStart[y], x0)
                rowEnd[y] = max(rowEnd[y], x1)
            }
        }
        dirty.formUnion(touched)
        return touched
    }
}
