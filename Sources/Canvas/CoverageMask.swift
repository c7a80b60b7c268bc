/// Per-pixel coverage (0...255) of one stroke, accumulated as the union (max) over its segments.
///
/// A stroke is composited once from its mask, so joints where segments overlap are never
/// darkened twice and consecutive segments leave no gaps. Coverage is
/// `clamp(r + 0.5 - d, 0, 1)` where `d` is the exact distance from the pixel centre to the
/// segment: a one-pixel linear edge. Rows are handled as spans: pixels certainly inside
/// (`d <= r - 0.5`) are set to 255 without any distance maths, and `sqrt` is only evaluated
/// in the thin edge band, which keeps thick strokes and huge off-canvas segments cheap.
/// The result is exactly the per-pixel formula (the tests compare against brute force).
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

    /// Adds the capsules of a polyline: a disc at the first point when `startCap` is set (a
    /// lone point is a dot) and a segment between each pair of distinct consecutive points.
    /// Returns the rectangle of pixels whose coverage may have risen (`nil`: all off-canvas).
    ///
    /// Two passes, same result as one (coverage is a max and 255 is the top): first every
    /// segment's full-coverage runs are set, then edges are evaluated only where the mask is
    /// not already 255, so the anti-aliased rings of joints buried inside the neighbouring
    /// segments' bodies cost nothing.
    @discardableResult
    mutating func addPolyline(_ points: ArraySlice<Point>, radius: Double, startCap: Bool) -> PixelRect? {
        guard let first = points.first else { return nil }
        var segments: [Segment] = []
        var previous = first
        for point in points.dropFirst() where point != previous {
            segments.append(Segment(a: previous, b: point))
            previous = point
        }
        // Spans cover each segment's band and end disc; the start disc of every segment but
        // the first is the previous one's end disc, and the first one's is this cap (or,
        // without `startCap`, the end disc of the batch before).
        if startCap || segments.isEmpty {
            segments.append(Segment(a: first, b: first))
        }
        let inner = radius - 0.5
        if inner > 0 {
            for segment in segments {
                fillInside(segment, radius: inner)
            }
        }
        var touched: PixelRect?
        for segment in segments {
            touched.formUnion(addEdges(segment, outer: radius + 0.5))
        }
        dirty.formUnion(touched)
        return touched
    }

    /// `addPolyline` for a stroke with pen pressure: each point has its own radius, and a
    /// segment's radius goes linearly from its start's to its end's (docs/PROTOCOL.md 12.4):
    /// the pixel at projection `t` on the segment, at distance `d` from it, gets
    /// `clamp(r(t) + 0.5 - d, 0, 1)`. Of several consecutive equal points the segment leaving
    /// them takes the last one's radius, so a stroke added point by point gets the coverage
    /// of the same stroke added at once.
    @discardableResult
    mutating func addTaperedPolyline(_ points: ArraySlice<Point>, radii: ArraySlice<Double>, startCap: Bool) -> PixelRect? {
        guard let first = points.first, let firstRadius = radii.first else { return nil }
        var segments: [(segment: Segment, ra: Double, rb: Double)] = []
        var previous = first
        var previousRadius = firstRadius
        for (point, radius) in zip(points.dropFirst(), radii.dropFirst()) {
            if point != previous {
                segments.append((Segment(a: previous, b: point), previousRadius, radius))
            }
            previous = point
            previousRadius = radius
        }
        // Unlike `addPolyline`, no dot for a batch of repeated points: a repeated point may
        // carry another radius, which only the segment leaving it uses.
        if startCap {
            segments.append((Segment(a: first, b: first), firstRadius, firstRadius))
        }
        for entry in segments where min(entry.ra, entry.rb) > 0.5 {
            fillInside(entry.segment, radius: min(entry.ra, entry.rb) - 0.5)
        }
        var touched: PixelRect?
        for entry in segments {
            touched.formUnion(addTaperedEdges(entry.segment, outerA: entry.ra + 0.5, outerB: entry.rb + 0.5))
        }
        dirty.formUnion(touched)
        return touched
    }

    /// The rows a shape of the given reach around the segment can touch, clipped to the mask.
    private static func rows(_ segment: Segment, reach: Double, height: Int) -> ClosedRange<Int>? {
        let top = max(0, ceiling(min(segment.ay, segment.by) - reach, limit: height))
        let bottom = min(height - 1, floor(max(segment.ay, segment.by) + reach, limit: height))
        return top <= bottom ? top...bottom : nil
    }

    /// The pixel columns whose centres lie within the span on row `y`, clipped to the mask.
    private static func columns(_ segment: Segment, y: Double, reach: Double, width: Int) -> ClosedRange<Int>? {
        guard let (lo, hi) = segment.span(y: y, radius: reach) else { return nil }
        let start = max(0, ceiling(lo, limit: width))
        let end = min(width - 1, floor(hi, limit: width))
        return start <= end ? start...end : nil
    }

    /// `ceil` as an Int for a value first clamped to `[-1, limit]`: exact, and an inline
    /// truncation instead of a libm call (baseline x86-64 has no rounding instruction).
    @inline(__always)
    private static func ceiling(_ value: Double, limit: Int) -> Int {
        let clamped = min(max(value, -1), Double(limit))
        let truncated = Int(clamped)
        return Double(truncated) < clamped ? truncated + 1 : truncated
    }

    /// `floor` as an Int for a value first clamped to `[-1, limit]`.
    @inline(__always)
    private static func floor(_ value: Double, limit: Int) -> Int {
        let clamped = min(max(value, -1), Double(limit))
        let truncated = Int(clamped)
        return Double(truncated) > clamped ? truncated - 1 : truncated
    }

    /// Sets 255 wherever the pixel centre is within `radius` (= r - 0.5) of the segment.
    private mutating func fillInside(_ segment: Segment, radius: Double) {
        guard let rows = Self.rows(segment, reach: radius, height: height) else { return }
        let width = width
        alpha.withUnsafeMutableBufferPointer { mask in
            for y in rows {
                guard let run = Self.columns(segment, y: Double(y), reach: radius, width: width) else { continue }
                mask[(y * width + run.lowerBound)...(y * width + run.upperBound)].update(repeating: 255)
            }
        }
    }

    /// `addEdges` for a tapered segment: the rows and spans of its wider end, the discs at
    /// both ends, and the exact coverage with the radius at each pixel's projection.
    private mutating func addTaperedEdges(_ segment: Segment, outerA: Double, outerB: Double) -> PixelRect? {
        let reach = max(outerA, outerB)
        guard let rows = Self.rows(segment, reach: reach, height: height) else { return nil }
        let width = width
        var touched: PixelRect?
        alpha.withUnsafeMutableBufferPointer { mask in
            for y in rows {
                let fy = Double(y)
                guard let (lo, hi) = segment.taperedSpan(y: fy, outerA: outerA, outerB: outerB) else { continue }
                let start = max(0, Self.ceiling(lo, limit: width))
                let end = min(width - 1, Self.floor(hi, limit: width))
                guard start <= end else { continue }
                let row = y * width
                for x in start...end where mask[row + x] != 255 {
                    let value = segment.coverage(x: Double(x), y: fy, outerA: outerA, outerB: outerB)
                    if value > mask[row + x] { mask[row + x] = value }
                }
                touched.formUnion(PixelRect(minX: start, minY: y, maxX: end, maxY: y))
                rowStart[y] = min(rowStart[y], start)
                rowEnd[y] = max(rowEnd[y], end)
            }
        }
        return touched
    }

    /// Evaluates the exact coverage of every pixel within `outer` (= r + 0.5) of the segment
    /// that is not already full, and records the touched columns per row.
    private mutating func addEdges(_ segment: Segment, outer: Double) -> PixelRect? {
        guard let rows = Self.rows(segment, reach: outer, height: height) else { return nil }
        let width = width
        var touched: PixelRect?
        alpha.withUnsafeMutableBufferPointer { mask in
            let raw = UnsafeRawBufferPointer(mask)
            for y in rows {
                let fy = Double(y)
                guard let run = Self.columns(segment, y: fy, reach: outer, width: width) else { continue }
                let row = y * width
                var x = run.lowerBound
                while x <= run.upperBound {
                    // Skip full pixels eight at a time.
                    if x + 8 <= run.upperBound + 1,
                       raw.loadUnaligned(fromByteOffset: row + x, as: UInt64.self) == UInt64.max {
                        x += 8
                        continue
                    }
                    if mask[row + x] != 255 {
                        let value = segment.coverage(x: Double(x), y: fy, outer: outer)
                        if value > mask[row + x] { mask[row + x] = value }
                    }
                    x += 1
                }
                touched.formUnion(PixelRect(minX: run.lowerBound, minY: y, maxX: run.upperBound, maxY: y))
                rowStart[y] = min(rowStart[y], run.lowerBound)
                rowEnd[y] = max(rowEnd[y], run.upperBound)
            }
        }
        return touched
    }
}
