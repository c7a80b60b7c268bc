@testable import Canvas

/// FNV-1a 64 over the pixel bytes: a compact fingerprint for golden images.
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}

/// Encodes operations into one frame from a fresh cursor.
func frame(_ ops: [DrawOperation]) -> [UInt8] {
    var cursor = StrokeCursor()
    return FrameCodec.encode(ops, cursor: &cursor)
}

extension Raster {
    /// Whether no pixel differs from white.
    var isBlank: Bool { pixels.allSatisfy { $0 == 255 } }

    /// How many pixels are not white.
    var paintedPixelCount: Int {
        stride(from: 0, to: pixels.count, by: 3).count { pixels[$0] != 255 || pixels[$0 + 1] != 255 || pixels[$0 + 2] != 255 }
    }
}

/// Random operation sequences for property tests: strokes (pen and eraser, widths 1...12,
/// points on and off canvas within the legal area), fills, undos, clears, strokes left open,
/// and, when `valid` is false, also operations a decoder would reject (stray POINTS / END).
struct OperationGenerator {
    var rng: SplitMix64
    let size: CanvasSize
    let valid: Bool
    /// Also pen-pressure strokes and points (PRESSURE_BEGIN, PRESSURE_POINTS), mixed with plain ones.
    let pressure: Bool
    /// A small palette so fills meet regions of exactly their colour now and then.
    let palette = [RGB.black, RGB(r: 200, g: 30, b: 30), RGB(r: 30, g: 30, b: 200), RGB.white]

    init(seed: UInt64, size: CanvasSize, valid: Bool = true, pressure: Bool = false) {
        rng = SplitMix64(seed: seed)
        self.size = size
        self.valid = valid
        self.pressure = pressure
    }

    private mutating func legalPoint() -> Point {
        // Mostly on canvas, sometimes anywhere in [-w, 2w) x [-h, 2h).
        if rng.int(0...5) == 0 {
            return Point(x: Int32(rng.int(-size.width...(2 * size.width - 1))),
                         y: Int32(rng.int(-size.height...(2 * size.height - 1))))
        }
        return Point(x: Int32(rng.int(0...(size.width - 1))), y: Int32(rng.int(0...(size.height - 1))))
    }

    mutating func operations(count: Int) -> [DrawOperation] {
        var ops: [DrawOperation] = []
        var open = false
        var last = Point(x: 0, y: 0)
        let limits = PointLimits(size: size)
        while ops.count < count {
            switch rng.int(0...19) {
            case 0...5:
                last = legalPoint()
                let tool: Tool = rng.int(0...5) == 0 ? .eraser : .pen
                let color = palette[rng.int(0...(palette.count - 1))]
                let width = UInt8(rng.int(1...12))
                if pressure, rng.int(0...1) == 0 {
                    ops.append(.pressureBegin(tool: tool, color: color, width: width, pressure: UInt8(rng.int(1...255)), at: last))
                } else {
                    ops.append(.begin(tool: tool, color: color, width: width, at: last))
                }
                open = true
            case 6...11:
                guard open || !valid else { continue }
                var points: [Point] = []
                for _ in 0..<rng.int(1...8) {
                    let step = rng.int(0...3) == 0 ? 15 : 4
                    let next = Point(x: last.x + Int32(rng.int(-step...step)), y: last.y + Int32(rng.int(-step...step)))
                    last = limits.contains(next) ? next : last
                    points.append(last)
                }
                if pressure, rng.int(0...2) != 0 {
                    ops.append(.pressurePoints(points.map { PressurePoint($0, pressure: UInt8(rng.int(1...255))) }))
                } else {
                    ops.append(.points(points))
                }
            case 12...13:
                guard open || !valid else { continue }
                ops.append(.end)
                open = false
            case 14...15:
                ops.append(.fill(color: palette[rng.int(0...(palette.count - 1))],
                                 at: Point(x: Int32(rng.int(0...(size.width - 1))), y: Int32(rng.int(0...(size.height - 1))))))
                open = false
            case 16...18:
                ops.append(.undo)
                open = false
            default:
                guard rng.int(0...2) == 0 else { continue }
                ops.append(.clear)
                open = false
            }
        }
        return ops
    }
}

/// An independent model of the protocol's canvas semantics: a raster plus a stack of raster
/// snapshots (one pushed before every stroke or fill, popped by UNDO, dropped by CLEAR).
/// Strokes are painted when they end, or at the end for one still open.
struct SnapshotReference {
    var raster: Raster
    private var snapshots: [Raster] = []
    private var open: Stroke?
    private var painter: Painter

    init(size: CanvasSize) {
        raster = Raster(size: size)
        painter = Painter(size: size)
    }

    mutating func apply(_ op: DrawOperation) {
        switch op {
        case let .begin(tool, color, width, point):
            close()
            snapshots.append(raster)
            open = Stroke(tool: tool, color: color, width: width, points: [point])
        case let .points(points):
            for point in points { open?.append(point, pressure: nil) }
        case let .pressureBegin(tool, color, width, pressure, point):
            close()
            snapshots.append(raster)
            open = Stroke(tool: tool, color: color, width: width, points: [point], pressures: [pressure])
        case let .pressurePoints(points):
            for entry in points { open?.append(entry.point, pressure: entry.pressure) }
        case .end:
            close()
        case let .fill(color, point):
            close()
            snapshots.append(raster)
            raster.floodFill(at: point, with: color)
        case .undo:
            close()
            if let previous = snapshots.popLast() { raster = previous }
        case .clear:
            close()
            snapshots.removeAll()
            raster = Raster(size: raster.size)
        }
    }

    /// The canvas with any open stroke painted as far as it goes.
    mutating func finished() -> Raster {
        guard let open else { return raster }
        var copy = raster
        painter.draw(open, on: &copy)
        return copy
    }

    private mutating func close() {
        if let stroke = open {
            painter.draw(stroke, on: &raster)
            open = nil
        }
    }
}

import Testing

/// Failed expectations print this instead of 1.4 million pixel values.
extension Raster: CustomTestStringConvertible {
    public var testDescription: String {
        "Raster \(width)x\(height) fnv1a \(String(fnv1a(pixels), radix: 16)), \(paintedPixelCount) painted"
    }
}
