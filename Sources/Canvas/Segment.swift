/// A stroke segment in Double pixel coordinates, with the distance maths of the rasteriser.
///
/// Determinism: only +, -, *, / and `squareRoot()` (all correctly rounded in IEEE 754) in a
/// fixed order, with no fused multiply-add, so the same segment gives the same bytes on every
/// machine. Integer inputs up to 2^31 are exact in Double.
struct Segment {
    let ax: Double
    let ay: Double
    let bx: Double
    let by: Double
    let dx: Double
    let dy: Double
    let lengthSquared: Double
    let length: Double
    /// Reciprocals, so the per-pixel and per-row maths multiplies instead of dividing.
    private let inverseLengthSquared: Double
    private let inverseDx: Double
    private let inverseDy: Double

    init(a: Point, b: Point) {
        ax = Double(a.x)
        ay = Double(a.y)
        bx = Double(b.x)
        by = Double(b.y)
        dx = bx - ax
        dy = by - ay
        lengthSquared = dx * dx + dy * dy
        length = lengthSquared.squareRoot()
        inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
        inverseDx = dx != 0 ? 1 / dx : 0
        inverseDy = dy != 0 ? 1 / dy : 0
    }

    /// Coverage 0...255 of the pixel centred at (x, y): `clamp(outer - d, 0, 1)` rounded.
    @inline(__always)
    func coverage(x: Double, y: Double, outer: Double) -> UInt8 {
        Self.coverage(outer - closest(x: x, y: y).distance)
    }

    /// The pixel centre's projection on the segment (`t` in 0...1) and its distance from
    /// the segment's point there.
    @inline(__always)
    private func closest(x: Double, y: Double) -> (t: Double, distance: Double) {
        let px = x - ax
        let py = y - ay
        var t = 0.0
        if lengthSquared > 0 {
            t = (px * dx + py * dy) * inverseLengthSquared
            t = min(max(t, 0), 1)
        }
        let ex = px - t * dx
        let ey = py - t * dy
        return (t, (ex * ex + ey * ey).squareRoot())
    }

    /// `value` (outer radius less distance) as a coverage byte.
    @inline(__always)
    private static func coverage(_ value: Double) -> UInt8 {
        if value <= 0 { return 0 }
        if value >= 1 { return 255 }
        return UInt8(value * 255 + 0.5)
    }

    /// Coverage 0...255 of a tapered segment: `clamp(r(t) + 0.5 - d, 0, 1)` rounded, with the
    /// outer radius `outerA` at `a` going linearly to `outerB` at `b`. Equal radii give
    /// exactly `coverage(x:y:outer:)`.
    @inline(__always)
    func coverage(x: Double, y: Double, outerA: Double, outerB: Double) -> UInt8 {
        let (t, distance) = closest(x: x, y: y)
        return Self.coverage(outerA + (outerB - outerA) * t - distance)
    }

    /// The x interval on row `y` that may be covered by a tapered segment: its discs at both
    /// ends and its band at the wider radius (a superset: coverage is computed per pixel).
    func taperedSpan(y: Double, outerA: Double, outerB: Double) -> (Double, Double)? {
        var lo = Double.infinity
        var hi = -Double.infinity
        for (cx, cy, radius) in [(ax, ay, outerA), (bx, by, outerB)] {
            let dy = y - cy
            if dy * dy <= radius * radius {
                let half = (radius * radius - dy * dy).squareRoot()
                lo = min(lo, cx - half)
                hi = max(hi, cx + half)
            }
        }
        if let (bandLo, bandHi) = span(y: y, radius: max(outerA, outerB)) {
            lo = min(lo, bandLo)
            hi = max(hi, bandHi)
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// The x interval on row `y` within `radius` of the side band or of the end point `b`.
    ///
    /// The disc around `a` is left out on purpose: in a polyline it is the previous
    /// segment's end disc (or the explicit start cap), so computing it again would only
    /// cost a square root per row. Band and end disc overlap, so this is one interval.
    func span(y: Double, radius: Double) -> (Double, Double)? {
        var lo = Double.infinity
        var hi = -Double.infinity
        let radiusSquared = radius * radius
        let ya = y - ay
        let yb = y - by
        if yb * yb <= radiusSquared {
            let half = (radiusSquared - yb * yb).squareRoot()
            lo = min(lo, bx - half)
            hi = max(hi, bx + half)
        }
        if lengthSquared > 0, let (bandLo, bandHi) = band(ya: ya, radius: radius) {
            lo = min(lo, bandLo)
            hi = max(hi, bandHi)
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// Where the row meets the rectangle swept by the segment: projection onto the segment
    /// in `[0, L²]` and distance from its line at most `radius`, each linear in x.
    private func band(ya: Double, radius: Double) -> (Double, Double)? {
        var lo = -Double.infinity
        var hi = Double.infinity
        // dx * (x - ax) must lie in [p0, p1].
        let p0 = -ya * dy
        let p1 = lengthSquared - ya * dy
        if dx > 0 {
            lo = max(lo, ax + p0 * inverseDx)
            hi = min(hi, ax + p1 * inverseDx)
        } else if dx < 0 {
            lo = max(lo, ax + p1 * inverseDx)
            hi = min(hi, ax + p0 * inverseDx)
        } else if p0 > 0 || p1 < 0 {
            return nil
        }
        // dy * (x - ax) must lie in [q0, q1].
        let reach = radius * length
        let q0 = ya * dx - reach
        let q1 = ya * dx + reach
        if dy > 0 {
            lo = max(lo, ax + q0 * inverseDy)
            hi = min(hi, ax + q1 * inverseDy)
        } else if dy < 0 {
            lo = max(lo, ax + q1 * inverseDy)
            hi = min(hi, ax + q0 * inverseDy)
        } else if q0 > 0 || q1 < 0 {
            return nil
        }
        return lo <= hi ? (lo, hi) : nil
    }
}
