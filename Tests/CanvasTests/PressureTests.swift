import Testing
@testable import Canvas

/// Pen pressure (docs/PROTOCOL.md 12.4): PRESSURE_BEGIN and PRESSURE_POINTS, a width factor
/// per point, rendered as tapered segments by the one-shot renderer, the live canvas and
/// the time-lapse alike.
@Suite("Pen pressure")
struct PressureTests {
    let size = CanvasSize(width: 48, height: 36)

    private func decode(_ bytes: [UInt8], cursor: StrokeCursor = StrokeCursor()) throws(FrameError) -> [DrawOperation] {
        var cursor = cursor
        return try FrameCodec.decode(bytes, size: size, cursor: &cursor)
    }

    @Test func bothOperationsDecodeWithAbsolutePointsAndRoundTrip() throws {
        // PRESSURE_BEGIN pen black width 10 p 64 at (5, 6); PRESSURE_POINTS (+2, -1) p 255, (+1, +1) p 1.
        let bytes: [UInt8] = [0x07, 0, 0, 0, 0, 10, 64, 10, 12, 0x08, 2, 4, 1, 255, 2, 2, 1, 0x03]
        let ops = try decode(bytes)
        #expect(ops == [
            .pressureBegin(tool: .pen, color: .black, width: 10, pressure: 64, at: Point(x: 5, y: 6)),
            .pressurePoints([PressurePoint(Point(x: 7, y: 5), pressure: 255), PressurePoint(Point(x: 8, y: 6), pressure: 1)]),
            .end,
        ])
        #expect(frame(ops) == bytes)
    }

    @Test func aZeroPressureAShortBodyOrNoOpenStrokeIsRefused() {
        func error(_ bytes: [UInt8]) -> FrameError? {
            do { _ = try decode(bytes); return nil } catch { return error }
        }
        #expect(error([0x07, 0, 0, 0, 0, 10, 0, 10, 12]) == .pressureOutOfRange(offset: 0))
        #expect(error([0x07, 0, 0, 0, 0, 10]) == .truncated(offset: 0))
        #expect(error([0x07, 0, 0, 0, 0, 70, 9, 0, 0]) == .widthOutOfRange(70))
        #expect(error([0x01, 0, 0, 0, 0, 4, 0, 0, 0x08, 1, 2, 2, 0]) == .pressureOutOfRange(offset: 8))
        #expect(error([0x01, 0, 0, 0, 0, 4, 0, 0, 0x08, 1, 2, 2]) == .truncated(offset: 8))
        #expect(error([0x08, 1, 2, 2, 9]) == .noOpenStroke(offset: 0))
        #expect(error([0x01, 0, 0, 0, 0, 4, 0, 0, 0x08, 0]) == .pointCountOutOfRange(0))
        #expect(FrameError.pressureOutOfRange(offset: 3).description == "pressure 0 in the operation at byte 3 is outside 1...255")
    }

    @Test func aLightStrokeIsThinnerAndAFullOneIsExactlyAPlainStroke() {
        let from = Point(x: 4, y: 18), to = Point(x: 44, y: 18)
        func painted(_ ops: [DrawOperation]) -> Int { Renderer.render(ops, size: size).paintedPixelCount }
        let plain = painted([.begin(tool: .pen, color: .black, width: 12, at: from), .points([to]), .end])
        let full: [DrawOperation] = [
            .pressureBegin(tool: .pen, color: .black, width: 12, pressure: 255, at: from),
            .pressurePoints([PressurePoint(to, pressure: 255)]), .end,
        ]
        #expect(Renderer.render(full, size: size) == Renderer.render([.begin(tool: .pen, color: .black, width: 12, at: from), .points([to]), .end], size: size))
        let light = painted([
            .pressureBegin(tool: .pen, color: .black, width: 12, pressure: 40, at: from),
            .pressurePoints([PressurePoint(to, pressure: 40)]), .end,
        ])
        #expect(light < plain / 3, "light \(light) vs full \(plain)")
        // Tapered: thin at the start, full at the end.
        let raster = Renderer.render([
            .pressureBegin(tool: .pen, color: .black, width: 12, pressure: 1, at: from),
            .pressurePoints([PressurePoint(to, pressure: 255)]), .end,
        ], size: size)
        func column(_ x: Int) -> Int { (0..<size.height).count { raster.pixels[(($0 * size.width) + x) * 3] < 128 } }
        #expect(column(6) <= 2)
        #expect(column(42) >= 10)
        #expect(column(24) > column(6) && column(24) < column(42))
    }

    @Test func theTaperedMaskIsExactlyThePerPixelFormulaAlsoInBatches() {
        var rng = SplitMix64(seed: 12)
        let (width, height) = (50, 40)
        for _ in 0..<200 {
            var points = [Point(x: Int32(rng.int(-20...70)), y: Int32(rng.int(-20...60)))]
            for _ in 0..<rng.int(0...6) {
                let last = points[points.count - 1]
                points.append(rng.int(0...4) == 0 ? last : Point(x: last.x + Int32(rng.int(-12...12)), y: last.y + Int32(rng.int(-12...12))))
            }
            let radii = points.map { _ in Stroke.radius(width: UInt8(rng.int(1...24)), pressure: UInt8(rng.int(1...255))) }
            var mask = CoverageMask(width: width, height: height)
            mask.addTaperedPolyline(points[...], radii: radii[...], startCap: true)
            var batches = CoverageMask(width: width, height: height)
            let cut = rng.int(0...(points.count - 1))
            batches.addTaperedPolyline(points[...cut], radii: radii[...cut], startCap: true)
            batches.addTaperedPolyline(points[cut...], radii: radii[cut...], startCap: false)
            #expect(batches.alpha == mask.alpha, "\(points) \(radii)")
            // The formula: the max over the start disc and each segment between distinct
            // points, a segment leaving equal points taking the last one's radius.
            var pieces: [(Segment, Double, Double)] = [(Segment(a: points[0], b: points[0]), radii[0] + 0.5, radii[0] + 0.5)]
            var (previous, previousRadius) = (points[0], radii[0])
            for (point, radius) in zip(points.dropFirst(), radii.dropFirst()) {
                if point != previous { pieces.append((Segment(a: previous, b: point), previousRadius + 0.5, radius + 0.5)) }
                (previous, previousRadius) = (point, radius)
            }
            for y in 0..<height {
                for x in 0..<width {
                    let expected = pieces.map { $0.0.coverage(x: Double(x), y: Double(y), outerA: $0.1, outerB: $0.2) }.max() ?? 0
                    if mask.alpha[y * width + x] != expected {
                        Issue.record("\(points) \(radii) at (\(x), \(y)): \(mask.alpha[y * width + x]) != \(expected)")
                        return
                    }
                }
            }
        }
    }

    // The live canvas, compaction and the wire with pressure strokes mixed in: the
    // property tests of `LiveCanvasTests` and `CompactionPropertyTests`, `pressure: true`.

    @Test func aTimelapseStopsInsideAPressureRunAndEndsOnTheDrawing() throws {
        let ops: [DrawOperation] = [
            .pressureBegin(tool: .pen, color: .black, width: 9, pressure: 30, at: Point(x: 3, y: 3)),
            .pressurePoints((1...40).map { (i: Int) -> PressurePoint in
                let point = Point(x: 3 + Int32(i), y: 3 + Int32(i / 2))
                return PressurePoint(point, pressure: UInt8(30 + i * 5))
            }),
            .end,
        ]
        let log = StrokeLog(size: size, frames: FrameCodec.encodeFrames(ops, maxFrameBytes: 32).map { StrokeLog.Frame(at: 0, bytes: $0) })
        let script = try TimelapseScript(log)
        #expect(script.steps == 42)
        var canvas = LiveCanvas(size: size)
        var position = TimelapseScript.Position()
        script.advance(&canvas, &position, to: 20)
        let halfway = canvas.raster.paintedPixelCount
        script.advance(&canvas, &position, to: script.steps)
        #expect(halfway > 0 && halfway < canvas.raster.paintedPixelCount)
        #expect(canvas.raster == Renderer.render(ops, size: size))
    }
}
