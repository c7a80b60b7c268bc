import Testing
@testable import Canvas

@Suite("Live canvas")
struct LiveCanvasTests {
    let size = CanvasSize(width: 48, height: 36)

    /// `pressure`: the strokes mix pen pressure in (docs/PROTOCOL.md 12.4).
    @Test(arguments: 0..<6, [false, true])
    func matchesAOneShotRenderAfterEveryOperation(batch: Int, pressure: Bool) {
        for seed in (batch * 20)..<(batch * 20 + 20) {
            var generator = OperationGenerator(seed: UInt64(1000 + seed), size: size, valid: seed % 2 == 0, pressure: pressure)
            var live = LiveCanvas(size: size)
            for (index, op) in generator.operations(count: 120).enumerated() {
                live.apply(op)
                if live.raster != Renderer.render(live.drawing) {
                    Issue.record("seed \(seed): differs after op \(index) \(op)")
                    break
                }
            }
        }
    }

    @Test func undoReRendersFromACheckpointNotFromTheStart() {
        var live = LiveCanvas(size: size)
        var generator = OperationGenerator(seed: 77, size: size)
        // 100 finished strokes.
        for index in 0..<100 {
            let point = Point(x: Int32(index % 48), y: Int32(index % 36))
            live.apply(.begin(tool: .pen, color: generator.palette[index % 3], width: UInt8(1 + index % 9), at: point))
            live.apply(.points([Point(x: 47 - point.x, y: 35 - point.y)]))
            live.apply(.end)
        }
        #expect(live.drawing.visibleItemCount == 100)
        // Undo everything, one at a time, checking pixels and how much was redrawn.
        var maxRedrawn = 0
        var totalRedrawn = 0
        for remaining in stride(from: 99, through: 0, by: -1) {
            live.apply(.undo)
            maxRedrawn = max(maxRedrawn, live.redrawnItems)
            totalRedrawn += live.redrawnItems
            #expect(live.drawing.visibleItemCount == remaining)
            #expect(live.raster == Renderer.render(live.drawing), "after undo down to \(remaining)")
        }
        // Each undo repaints fewer items than a checkpoint interval, except when it has to
        // rebuild the snapshots that were evicted (at most once per evicted stretch).
        #expect(maxRedrawn < 100)
        // Re-rendering from the first operation every time would repaint 0 + 1 + ... + 99 = 4950.
        #expect(totalRedrawn < 1200, "\(totalRedrawn)")
        #expect(live.raster.isBlank)
        let ops = generator.operations(count: 50)
        ops.forEach { live.apply($0) }
        #expect(live.raster == Renderer.render(live.drawing))
    }

    @Test func undoOfTheOpenStrokeRestoresWhatWasUnderIt() throws {
        var live = LiveCanvas(size: size)
        live.apply(.fill(color: RGB(r: 10, g: 20, b: 30), at: Point(x: 0, y: 0)))
        let before = live.raster
        _ = try live.apply(frame: frame([.begin(tool: .pen, color: .black, width: 7, at: Point(x: 10, y: 10)),
                                         .points([Point(x: 30, y: 20)])]))
        #expect(live.raster != before)
        live.apply(.undo)
        #expect(live.raster == before)
        #expect(live.redrawnItems == 0)
    }

    @Test func initFromADrawingKeepsTheOpenStrokeGrowing() throws {
        var drawing = Drawing(size: size)
        _ = try drawing.apply(frame: frame([.begin(tool: .pen, color: .black, width: 3, at: Point(x: 2, y: 2)),
                                            .points([Point(x: 20, y: 5)])]))
        var live = LiveCanvas(drawing: drawing)
        #expect(live.raster == Renderer.render(drawing))
        var cursor = drawing.cursor
        let summary = try live.apply(frame: FrameCodec.encode([.points([Point(x: 30, y: 30), Point(x: 40, y: 3)]), .end], cursor: &cursor))
        #expect(summary == FrameSummary(operations: 2, points: 2, fills: 0))
        #expect(!live.drawing.cursor.isOpen)
        #expect(live.raster == Renderer.render(live.drawing))
        // A rejected frame changes neither the drawing nor the pixels.
        let raster = live.raster
        #expect(throws: FrameError.noOpenStroke(offset: 0)) { try live.apply(frame: [0x03]) }
        #expect(live.raster == raster)
    }

    @Test func clearAndResetGiveWhite() {
        var live = LiveCanvas(size: size)
        live.apply(.begin(tool: .pen, color: .black, width: 9, at: Point(x: 5, y: 5)))
        live.apply(.clear)
        #expect(live.raster.isBlank && live.drawing.isEmpty)
        live.apply(.undo)
        #expect(live.raster.isBlank)
        live.apply(.begin(tool: .pen, color: .black, width: 9, at: Point(x: 5, y: 5)))
        live.reset()
        #expect(live.raster.isBlank && live.drawing.isEmpty)
        live.apply(.points([Point(x: 9, y: 9)]))
        #expect(live.raster.isBlank)
    }
}
