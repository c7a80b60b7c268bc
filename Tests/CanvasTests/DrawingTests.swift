import Testing
@testable import Canvas

@Suite("Drawing semantics")
struct DrawingTests {
    let size = CanvasSize(width: 100, height: 80)

    private func begin(_ x: Int32, _ y: Int32, width: UInt8 = 3, tool: Tool = .pen) -> DrawOperation {
        .begin(tool: tool, color: .black, width: width, at: Point(x: x, y: y))
    }

    @Test func beginWhileOpenEndsTheOpenStroke() {
        var drawing = Drawing(size: size)
        drawing.apply(begin(1, 1))
        drawing.apply(.points([Point(x: 5, y: 5)]))
        drawing.apply(begin(10, 10))
        #expect(drawing.visibleItemCount == 2)
        #expect(drawing.pointCount == 3)
        #expect(drawing.cursor.isOpen)
        #expect(drawing.compacted() == [begin(1, 1), .points([Point(x: 5, y: 5)]), .end, begin(10, 10)])
    }

    @Test func undoRemovesTheOpenStrokeFirst() {
        var drawing = Drawing(size: size)
        drawing.apply(begin(1, 1))
        drawing.apply(.end)
        drawing.apply(begin(2, 2))
        drawing.apply(.points([Point(x: 3, y: 3)]))
        drawing.apply(.undo)
        #expect(!drawing.cursor.isOpen)
        #expect(drawing.compacted() == [begin(1, 1), .end])
        #expect(drawing.pointCount == 1)
        drawing.apply(.undo)
        #expect(drawing.isEmpty)
        drawing.apply(.undo)
        #expect(drawing.isEmpty)
    }

    @Test func undoAfterClearDoesNothingUntilSomethingNewIsDrawn() {
        var drawing = Drawing(size: size)
        drawing.apply(begin(1, 1))
        drawing.apply(.end)
        drawing.apply(.fill(color: .black, at: Point(x: 50, y: 50)))
        drawing.apply(.clear)
        drawing.apply(.undo)
        #expect(drawing.isEmpty)
        #expect(drawing.compacted().isEmpty)
        drawing.apply(begin(7, 7))
        drawing.apply(.end)
        drawing.apply(.fill(color: .white, at: Point(x: 0, y: 0)))
        drawing.apply(.undo)
        #expect(drawing.compacted() == [begin(7, 7), .end])
        drawing.apply(.undo)
        drawing.apply(.undo)
        #expect(drawing.isEmpty)
    }

    @Test func fillAndClearCloseTheOpenStroke() {
        var drawing = Drawing(size: size)
        drawing.apply(begin(1, 1))
        drawing.apply(.fill(color: .black, at: Point(x: 0, y: 0)))
        #expect(!drawing.cursor.isOpen)
        #expect(drawing.visibleItemCount == 2)
        drawing.apply(.points([Point(x: 9, y: 9)]))  // no open stroke: ignored
        #expect(drawing.pointCount == 1)
        drawing.apply(begin(4, 4))
        drawing.apply(.clear)
        #expect(!drawing.cursor.isOpen)
        #expect(drawing.isEmpty && drawing.pointCount == 0)
    }

    @Test func inMemoryOperationsAreMadeLegal() {
        var drawing = Drawing(size: size)
        drawing.apply(.end)
        drawing.apply(.fill(color: .black, at: Point(x: 100, y: 0)))
        drawing.apply(.fill(color: .black, at: Point(x: -1, y: 0)))
        #expect(drawing.isEmpty)
        drawing.apply(.begin(tool: .pen, color: .black, width: 0, at: Point(x: 5000, y: -5000)))
        drawing.apply(.points([Point(x: Int32.min, y: Int32.max)]))
        drawing.apply(.begin(tool: .pen, color: .black, width: 200, at: Point(x: 1, y: 1)))
        #expect(drawing.compacted() == [
            .begin(tool: .pen, color: .black, width: 1, at: Point(x: 199, y: -80)),
            .points([Point(x: -100, y: 159)]),
            .end,
            .begin(tool: .pen, color: .black, width: 64, at: Point(x: 1, y: 1)),
        ])
        // ...so the compacted frames always pass the decoder.
        var replay = Drawing(size: size)
        for bytes in drawing.compactedFrames() {
            #expect(throws: Never.self) { try replay.apply(frame: bytes) }
        }
        #expect(replay.compacted() == drawing.compacted())
    }

    @Test func rejectedFramesChangeNothing() throws {
        var drawing = Drawing(size: size)
        _ = try drawing.apply(frame: frame([begin(10, 10), .points([Point(x: 12, y: 12)])]))
        let before = drawing.compacted()
        let cursor = drawing.cursor
        // A valid POINTS followed by an unknown opcode: the POINTS must not be applied.
        #expect(throws: FrameError.unknownOpcode(0x42, offset: 4)) {
            try drawing.apply(frame: [0x02, 1, 2, 2, 0x42])
        }
        // UNDO then a bad fill.
        #expect(throws: FrameError.fillOutsideCanvas(Point(x: 100, y: 0))) {
            try drawing.apply(frame: [0x05, 0x04, 0, 0, 0, 100, 0])
        }
        #expect(drawing.compacted() == before)
        #expect(drawing.cursor == cursor)
        #expect(drawing.pointCount == 2)
    }

    @Test func frameSummaryAndCursorFollowTheDecoder() throws {
        var drawing = Drawing(size: .standard)
        var cursor = StrokeCursor()
        for logFrame in SampleDrawing.make(seed: 11).frames {
            let expected = try FrameCodec.validate(logFrame.bytes, size: .standard, cursor: &cursor)
            #expect(try drawing.apply(frame: logFrame.bytes) == expected)
            #expect(drawing.cursor == cursor)
        }
    }

    @Test func compactedOpenStrokeAcceptsTheDrawersLivePoints() throws {
        // The drawer's own session: BEGIN, some POINTS, an undone stroke before it.
        var drawer = Drawing(size: .standard)
        _ = try drawer.apply(frame: frame([begin(50, 50), .points([Point(x: 60, y: 60)]), .end, .undo,
                                           begin(100, 100), .points([Point(x: 110, y: 105)])]))
        // A late joiner gets the compacted frames, then the next live frame as the drawer sent it.
        var joiner = Drawing(size: .standard)
        for bytes in drawer.compactedFrames() {
            _ = try joiner.apply(frame: bytes)
        }
        #expect(joiner.cursor == drawer.cursor)
        var live = drawer.cursor
        let next = FrameCodec.encode([.points([Point(x: 120, y: 100)]), .end], cursor: &live)
        _ = try drawer.apply(frame: next)
        _ = try joiner.apply(frame: next)
        #expect(joiner.compacted() == drawer.compacted())
        #expect(joiner.compacted() == [begin(100, 100), .points([Point(x: 110, y: 105), Point(x: 120, y: 100)]), .end])
    }

    @Test func resetStartsAWhiteCanvas() {
        var drawing = Drawing(size: size)
        drawing.apply(begin(1, 1))
        drawing.reset()
        #expect(drawing.isEmpty)
        #expect(drawing.cursor == StrokeCursor())
        #expect(drawing.size == size)
        #expect(Renderer.render(drawing).isBlank)
    }
}
