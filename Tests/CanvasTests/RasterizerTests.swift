import Foundation
import Testing
@testable import Canvas

@Suite("Stroke rasteriser")
struct RasterizerTests {
    private func stroke(_ points: [Point], width: UInt8, color: RGB = .black, tool: Tool = .pen) -> [DrawOperation] {
        [.begin(tool: tool, color: color, width: width, at: points[0]), .points(Array(points.dropFirst())), .end]
    }

    @Test func rowSpansGiveExactlyThePerPixelCoverage() {
        // The span shortcut (memset inside, distance only at the edges) must equal evaluating
        // clamp(r + 0.5 - d, 0, 1) at every pixel.
        var rng = SplitMix64(seed: 7)
        let (width, height) = (61, 47)
        for _ in 0..<400 {
            let a = Point(x: Int32(rng.int(-70...130)), y: Int32(rng.int(-50...100)))
            let b = rng.int(0...4) == 0 ? a : Point(x: Int32(rng.int(-70...130)), y: Int32(rng.int(-50...100)))
            let radius = Double(rng.int(1...40)) / 2
            var mask = CoverageMask(width: width, height: height)
            let touched = mask.addPolyline([a, b][...], radius: radius, startCap: true)
            let segment = Segment(a: a, b: b)
            var any = false
            for y in 0..<height {
                for x in 0..<width {
                    let expected = segment.coverage(x: Double(x), y: Double(y), outer: radius + 0.5)
                    let actual = mask.alpha[y * width + x]
                    if expected != actual {
                        Issue.record("\(a)-\(b) r \(radius) at (\(x), \(y)): \(actual) != \(expected)")
                        return
                    }
                    if actual > 0 {
                        any = true
                        let inside = touched.map { x >= $0.minX && x <= $0.maxX && y >= $0.minY && y <= $0.maxY } ?? false
                        #expect(inside)
                    }
                }
            }
            if touched == nil { #expect(!any) }
        }
    }

    @Test func polylineMaskIsTheMaxOverItsSegments() {
        // The two-pass polyline (full runs first, then edges where not yet full, each
        // segment's span covering its band and end disc) must equal the plain maximum of
        // every segment's per-pixel coverage, also when added in batches.
        var rng = SplitMix64(seed: 8)
        let (width, height) = (50, 40)
        for _ in 0..<200 {
            var points = [Point(x: Int32(rng.int(-20...70)), y: Int32(rng.int(-20...60)))]
            for _ in 0..<rng.int(0...6) {
                let last = points[points.count - 1]
                points.append(rng.int(0...4) == 0 ? last : Point(x: last.x + Int32(rng.int(-12...12)), y: last.y + Int32(rng.int(-12...12))))
            }
            let radius = Double(rng.int(1...24)) / 2
            var mask = CoverageMask(width: width, height: height)
            mask.addPolyline(points[...], radius: radius, startCap: true)
            // Live strokes arrive in batches, each continuing from the previous last point.
            var batches = CoverageMask(width: width, height: height)
            let cut = rng.int(0...(points.count - 1))
            batches.addPolyline(points[...cut], radius: radius, startCap: true)
            batches.addPolyline(points[cut...], radius: radius, startCap: false)
            #expect(batches.alpha == mask.alpha)
            var segments = zip(points, points.dropFirst()).filter { $0 != $1 }.map { Segment(a: $0, b: $1) }
            segments.append(Segment(a: points[0], b: points[0]))
            for y in 0..<height {
                for x in 0..<width {
                    let expected = segments.map { $0.coverage(x: Double(x), y: Double(y), outer: radius + 0.5) }.max() ?? 0
                    if mask.alpha[y * width + x] != expected {
                        Issue.record("\(points) r \(radius) at (\(x), \(y)): \(mask.alpha[y * width + x]) != \(expected)")
                        return
                    }
                }
            }
        }
    }

    @Test(arguments: [2, 3, 5, 8, 16])
    func slowCurveHasNoGaps(width: Int) {
        let size = CanvasSize(width: 260, height: 260)
        // The centre of a straight horizontal line of the same width is the reference darkness.
        let straight = Renderer.render(stroke([Point(x: 20, y: 20), Point(x: 200, y: 20)], width: UInt8(width)), size: size)
        let reference = straight.pixel(x: 110, y: 20)
        #expect(reference == .black)
        // A circle sampled at about one pixel per step, as a slow hand gives.
        var points: [Point] = []
        let radius = 100.0
        let steps = Int(2 * Double.pi * radius)
        for index in 0...steps {
            let angle = Double(index) / Double(steps) * 2 * Double.pi
            let point = Point(x: Int32((130 + radius * cos(angle)).rounded()), y: Int32((130 + radius * sin(angle)).rounded()))
            if point != points.last { points.append(point) }
        }
        let raster = Renderer.render(stroke(points, width: UInt8(width)), size: size)
        for (index, point) in points.enumerated() {
            let pixel = raster.pixel(x: Int(point.x), y: Int(point.y))
            #expect(pixel.r <= reference.r, "vertex \(index) \(point) is lighter: \(pixel)")
            guard width >= 3, index > 0 else { continue }
            // Between vertices: the pixel nearest the midpoint is within 0.75 px of the line.
            let previous = points[index - 1]
            let middle = raster.pixel(x: Int((Double(point.x + previous.x) / 2).rounded(.down)),
                                      y: Int((Double(point.y + previous.y) / 2).rounded(.down)))
            #expect(middle.r <= reference.r, "between \(previous) and \(point): \(middle)")
        }
        // The ring is continuous: every pixel on the circle of radius 100 is painted.
        for degree in 0..<720 {
            let angle = Double(degree) / 720 * 2 * Double.pi
            let x = Int((130 + radius * cos(angle)).rounded())
            let y = Int((130 + radius * sin(angle)).rounded())
            #expect(raster.pixel(x: x, y: y) != .white)
        }
    }

    @Test func jointIsNotDarkerThanEitherSegmentAlone() {
        let size = CanvasSize(width: 120, height: 80)
        let grey = RGB(r: 128, g: 100, b: 60)
        let a = Point(x: 20, y: 20), b = Point(x: 90, y: 40), c = Point(x: 25, y: 60)
        let joint = Renderer.render(stroke([a, b, c], width: 12, color: grey), size: size)
        let first = Renderer.render(stroke([a, b], width: 12, color: grey), size: size)
        let second = Renderer.render(stroke([b, c], width: 12, color: grey), size: size)
        var overlap = 0
        for index in joint.pixels.indices {
            // Union of coverage: exactly the darker of the two single segments, never darker.
            #expect(joint.pixels[index] == min(first.pixels[index], second.pixels[index]))
            if first.pixels[index] < 255, second.pixels[index] < 255 { overlap += 1 }
        }
        #expect(overlap > 100)
        // The joint's centre is the stroke colour, as the body's centre is.
        #expect(joint.pixel(x: 90, y: 40) == grey)
        #expect(joint.pixel(x: 55, y: 30) == grey)
    }

    @Test func beginAndEndAloneDrawARoundDot() {
        let size = CanvasSize(width: 40, height: 40)
        let raster = Renderer.render([.begin(tool: .pen, color: .black, width: 10, at: Point(x: 20, y: 20)), .end], size: size)
        var area = 0.0
        for y in 0..<40 {
            for x in 0..<40 {
                let value = raster.pixel(x: x, y: y).r
                let (dx, dy) = (x - 20, y - 20)
                // Eight-fold symmetric.
                #expect(value == raster.pixel(x: 20 - dx, y: 20 + dy).r)
                #expect(value == raster.pixel(x: 20 + dy, y: 20 + dx).r)
                let distance = (Double(dx * dx + dy * dy)).squareRoot()
                if distance <= 4.5 { #expect(value == 0) }
                if distance >= 5.5 { #expect(value == 255) }
                area += Double(255 - value) / 255
            }
        }
        // A disc of radius 5 has area 78.5.
        #expect(abs(area - 78.54) < 1.0)
        let thin = Renderer.render([.begin(tool: .pen, color: .black, width: 1, at: Point(x: 3, y: 3)), .end], size: size)
        #expect(thin.pixel(x: 3, y: 3) == .black)
        #expect(thin.paintedPixelCount == 1)
    }

    @Test func offCanvasGeometryIsClippedNotCrashedOn() {
        let size = CanvasSize.standard
        let diagonal = Renderer.render(stroke([Point(x: -800, y: -600), Point(x: 1599, y: 1199)], width: 4), size: size)
        #expect(diagonal.pixel(x: 400, y: 300) == .black)
        #expect(diagonal.pixel(x: 0, y: 0) != .white)
        #expect(diagonal.pixel(x: 799, y: 599) != .white)
        #expect(diagonal.pixel(x: 799, y: 0) == .white)
        let outside = Renderer.render(stroke([Point(x: -800, y: -600), Point(x: -100, y: 1199), Point(x: -700, y: 1199),
                                             Point(x: 1599, y: 1199), Point(x: 1599, y: -600)], width: 64),
                                      size: size)
        #expect(outside.isBlank)
        let edge = Renderer.render(stroke([Point(x: -3, y: 50)], width: 10), size: size)
        #expect(edge.pixel(x: 0, y: 50) == .black)
        #expect(edge.pixel(x: 2, y: 50) != .white)
        #expect(edge.pixel(x: 3, y: 50) == .white)
        // Lone points at the extreme corners of the legal area.
        let corners = Renderer.render([
            .begin(tool: .pen, color: .black, width: 64, at: Point(x: 1599, y: 1199)), .end,
            .begin(tool: .pen, color: .black, width: 64, at: Point(x: -800, y: -600)), .end,
        ], size: size)
        #expect(corners.isBlank)
    }

    @Test func eraserPaintsWhiteWhateverItsColour() {
        let size = CanvasSize(width: 100, height: 60)
        let ops = stroke([Point(x: 10, y: 30), Point(x: 90, y: 30)], width: 30, color: RGB(r: 0, g: 0, b: 200))
            + stroke([Point(x: 50, y: 0), Point(x: 50, y: 59)], width: 10, color: RGB(r: 255, g: 0, b: 0), tool: .eraser)
        let raster = Renderer.render(ops, size: size)
        #expect(raster.pixel(x: 50, y: 30) == .white)
        #expect(raster.pixel(x: 46, y: 30) == .white)
        #expect(raster.pixel(x: 44, y: 30) == RGB(r: 0, g: 0, b: 200))
        #expect(raster.pixel(x: 30, y: 30) == RGB(r: 0, g: 0, b: 200))
        // Its anti-aliased edge blends towards white, never towards red.
        let edge = raster.pixel(x: 45, y: 30)
        #expect(edge.r == edge.g && edge.b > edge.r && edge.r < 255)
    }

    @Test func renderingIsDeterministic() throws {
        let drawing = try SampleDrawing.make(seed: 5).drawing()
        #expect(Renderer.render(drawing) == Renderer.render(drawing))
    }
}
