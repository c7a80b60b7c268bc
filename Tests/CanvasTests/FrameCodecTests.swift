import Testing
@testable import Canvas

@Suite("Frame codec")
struct FrameCodecTests {
    let size = CanvasSize.standard

    private func decode(_ bytes: [UInt8], cursor: StrokeCursor = StrokeCursor()) throws(FrameError) -> [DrawOperation] {
        var cursor = cursor
        return try FrameCodec.decode(bytes, size: size, cursor: &cursor)
    }

    private func error(_ bytes: [UInt8], cursor: StrokeCursor = StrokeCursor()) -> FrameError? {
        do {
            _ = try decode(bytes, cursor: cursor)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesEveryOperationWithAbsolutePoints() throws {
        // BEGIN pen rgb(1,2,3) width 5 at (10, -3); POINTS 2: (+1, +2), (-3, 0); END; FILL; UNDO; CLEAR.
        let bytes: [UInt8] = [0x01, 0, 1, 2, 3, 5, 20, 5, 0x02, 2, 2, 4, 5, 0, 0x03,
                              0x04, 9, 8, 7, 0x90, 0x03, 2, 0x05, 0x06]
        let ops = try decode(bytes)
        #expect(ops == [
            .begin(tool: .pen, color: RGB(r: 1, g: 2, b: 3), width: 5, at: Point(x: 10, y: -3)),
            .points([Point(x: 11, y: -1), Point(x: 8, y: -1)]),
            .end,
            .fill(color: RGB(r: 9, g: 8, b: 7), at: Point(x: 400, y: 2)),
            .undo,
            .clear,
        ])
    }

    @Test func zigzagMapsSmallMagnitudesToSmallCodes() {
        let cases: [(Int32, UInt32)] = [(0, 0), (-1, 1), (1, 2), (-2, 3), (2, 4), (Int32.max, 0xFFFF_FFFE), (Int32.min, 0xFFFF_FFFF)]
        for (value, code) in cases {
            #expect(FrameWriter.zigzag(value) == code)
        }
    }

    @Test func uvarintAcceptsFiveBytesUpTo32Bits() throws {
        // FILL x = 0xFFFFFFFF is a legal varint (then rejected as outside the canvas).
        #expect(error([0x04, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0]) == .fillOutsideCanvas(Point(x: Int32.max, y: 0)))
        // Non-minimal encodings are still LEB128: 0x81 0x00 is 1.
        #expect(try decode([0x04, 0, 0, 0, 0x81, 0x00, 0x02]) == [.fill(color: .black, at: Point(x: 1, y: 2))])
    }

    @Test func uvarintBeyond32BitsOrFiveBytesIsTooLong() {
        #expect(error([0x04, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0]) == .varintTooLong(offset: 4))
        #expect(error([0x04, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0]) == .varintTooLong(offset: 4))
        #expect(error([0x01, 0, 0, 0, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x70, 0]) == .varintTooLong(offset: 6))
    }

    @Test func svarintCoversTheFullInt32Range() throws {
        // BEGIN at the legal corner (-800, -600), then POINTS with the largest legal delta.
        let begin = frame([.begin(tool: .pen, color: .black, width: 1, at: Point(x: -800, y: -600)),
                           .points([Point(x: 1599, y: 1199)])])
        let ops = try decode(begin)
        #expect(ops.last == .points([Point(x: 1599, y: 1199)]))
        // A delta that wraps Int32 lands far outside the legal area and is rejected, not trapped on.
        var cursor = StrokeCursor()
        cursor.isOpen = true
        cursor.last = Point(x: 10, y: 10)
        let wrap: [UInt8] = [0x02, 1, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0]
        #expect(error(wrap, cursor: cursor) == .pointOutOfRange(Point(x: 10 &+ Int32.max, y: 10)))
    }

    @Test func emptyFrameIsInvalid() {
        #expect(error([]) == .empty)
    }

    @Test func unknownOpcodes() {
        #expect(error([0x00]) == .unknownOpcode(0, offset: 0))
        #expect(error([0x05, 0x09]) == .unknownOpcode(9, offset: 1))
        #expect(error([0x06, 0xFF]) == .unknownOpcode(0xFF, offset: 1))
    }

    @Test func truncatedBodies() {
        #expect(error([0x01, 0, 0, 0, 0]) == .truncated(offset: 0))
        #expect(error([0x01, 0, 0, 0, 0, 3, 2]) == .truncated(offset: 0))
        #expect(error([0x01, 0, 0, 0, 0, 3, 2, 0x80]) == .truncated(offset: 0))
        #expect(error([0x05, 0x04, 1, 2]) == .truncated(offset: 1))
        #expect(error([0x01, 0, 0, 0, 0, 3, 2, 2, 0x02]) == .truncated(offset: 8))
        #expect(error([0x01, 0, 0, 0, 0, 3, 2, 2, 0x02, 2, 0, 0, 1]) == .truncated(offset: 8))
    }

    @Test func pointCountMustBeWithin1To1024() {
        let begin: [UInt8] = [0x01, 0, 0, 0, 0, 3, 2, 2]
        #expect(error(begin + [0x02, 0]) == .pointCountOutOfRange(0))
        #expect(error(begin + [0x02, 0x81, 0x08] + [UInt8](repeating: 0, count: 2050)) == .pointCountOutOfRange(1025))
        let full = begin + [0x02, 0x80, 0x08] + [UInt8](repeating: 0, count: 2048)
        #expect(error(full) == nil)
    }

    @Test func widthMustBeWithin1To64() {
        #expect(error([0x01, 0, 0, 0, 0, 0, 2, 2]) == .widthOutOfRange(0))
        #expect(error([0x01, 0, 0, 0, 0, 65, 2, 2]) == .widthOutOfRange(65))
        #expect(error([0x01, 0, 0, 0, 0, 64, 2, 2]) == nil)
    }

    @Test func toolMustBePenOrEraser() throws {
        #expect(error([0x01, 2, 0, 0, 0, 3, 2, 2]) == .invalidTool(2, offset: 1))
        #expect(try decode([0x01, 1, 0, 0, 0, 3, 2, 2]).first == .begin(tool: .eraser, color: .black, width: 3, at: Point(x: 1, y: 1)))
    }

    @Test func pointsMustStayInTheLegalArea() {
        let corners = [Point(x: -800, y: -600), Point(x: 1599, y: 1199), Point(x: -800, y: 1199), Point(x: 1599, y: -600)]
        for corner in corners {
            #expect(error(frame([.begin(tool: .pen, color: .black, width: 1, at: corner)])) == nil)
        }
        let outside = [Point(x: -801, y: 0), Point(x: 1600, y: 0), Point(x: 0, y: -601), Point(x: 0, y: 1200)]
        for point in outside {
            #expect(error(frame([.begin(tool: .pen, color: .black, width: 1, at: point)])) == .pointOutOfRange(point))
            let viaPoints = frame([.begin(tool: .pen, color: .black, width: 1, at: Point(x: 0, y: 0)), .points([point])])
            #expect(error(viaPoints) == .pointOutOfRange(point))
        }
    }

    @Test func fillMustBeOnTheCanvas() {
        #expect(error(frame([.fill(color: .black, at: Point(x: 799, y: 599))])) == nil)
        #expect(error(frame([.fill(color: .black, at: Point(x: 800, y: 0))])) == .fillOutsideCanvas(Point(x: 800, y: 0)))
        #expect(error(frame([.fill(color: .black, at: Point(x: 0, y: 600))])) == .fillOutsideCanvas(Point(x: 0, y: 600)))
    }

    @Test func pointsAndEndNeedAnOpenStroke() {
        #expect(error([0x03]) == .noOpenStroke(offset: 0))
        #expect(error([0x02, 1, 0, 0]) == .noOpenStroke(offset: 0))
        let begin = frame([.begin(tool: .pen, color: .black, width: 2, at: Point(x: 5, y: 5))])
        // END, FILL, UNDO and CLEAR all close the stroke within the frame.
        #expect(error(begin + [0x03, 0x03]) == .noOpenStroke(offset: begin.count + 1))
        #expect(error(begin + [0x05, 0x02, 1, 0, 0]) == .noOpenStroke(offset: begin.count + 1))
        #expect(error(begin + [0x06, 0x03]) == .noOpenStroke(offset: begin.count + 1))
        #expect(error(begin + [0x04, 0, 0, 0, 1, 1, 0x03]) == .noOpenStroke(offset: begin.count + 6))
        // BEGIN while open replaces the open stroke, which stays open for POINTS.
        #expect(error(begin + begin + [0x02, 1, 2, 2, 0x03]) == nil)
    }

    @Test func cursorCarriesAcrossFramesAndIsUntouchedOnError() throws {
        var cursor = StrokeCursor()
        _ = try FrameCodec.decode(frame([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 100, y: 100))]),
                                  size: size, cursor: &cursor)
        #expect(cursor.isOpen)
        #expect(cursor.last == Point(x: 100, y: 100))
        // POINTS (+2, -1) in a later frame resolves against the previous frame's last point.
        let ops = try FrameCodec.decode([0x02, 1, 4, 1], size: size, cursor: &cursor)
        #expect(ops == [.points([Point(x: 102, y: 99)])])
        #expect(cursor.last == Point(x: 102, y: 99))
        let before = cursor
        // Valid POINTS, then a bad opcode: nothing of it counts.
        #expect(throws: FrameError.unknownOpcode(9, offset: 4)) {
            try FrameCodec.decode([0x02, 1, 4, 1, 0x09], size: size, cursor: &cursor)
        }
        #expect(cursor == before)
        #expect(throws: FrameError.noOpenStroke(offset: 1)) {
            try FrameCodec.validate([0x03, 0x03], size: size, cursor: &cursor)
        }
        #expect(cursor == before)
        _ = try FrameCodec.validate([0x03], size: size, cursor: &cursor)
        #expect(!cursor.isOpen)
    }

    @Test func validateCountsWithoutDecoding() throws {
        var cursor = StrokeCursor()
        let bytes = frame([
            .begin(tool: .pen, color: .black, width: 4, at: Point(x: 1, y: 1)),
            .points([Point(x: 2, y: 2), Point(x: 3, y: 3)]),
            .end,
            .fill(color: .white, at: Point(x: 0, y: 0)),
            .undo,
        ])
        let summary = try FrameCodec.validate(bytes, size: size, cursor: &cursor)
        #expect(summary == FrameSummary(operations: 5, points: 3, fills: 1, strokes: 1, removals: 1))
    }

    @Test func encodeSplitsLongPointRunsAndRoundTrips() throws {
        let points = (1...3000).map { Point(x: Int32($0 % 700), y: Int32(($0 * 7) % 500)) }
        let ops: [DrawOperation] = [.begin(tool: .eraser, color: RGB(r: 9, g: 9, b: 9), width: 64, at: Point(x: 0, y: 0)),
                                    .points(points), .end]
        var encodeCursor = StrokeCursor()
        let bytes = FrameCodec.encode(ops, cursor: &encodeCursor)
        var cursor = StrokeCursor()
        let decoded = try FrameCodec.decode(bytes, size: size, cursor: &cursor)
        #expect(decoded.count == 5)
        let runs = decoded.compactMap { op -> [Point]? in
            if case let .points(run) = op { return run }
            return nil
        }
        #expect(runs.map(\.count) == [1024, 1024, 952])
        #expect(runs.flatMap { $0 } == points)
        #expect(cursor == encodeCursor)
        var empty = StrokeCursor()
        #expect(FrameCodec.encode([.points([])], cursor: &empty).isEmpty)
    }

    @Test func encodeFramesRespectsTheLimitAndReplaysIdentically() throws {
        var generator = OperationGenerator(seed: 42, size: size)
        let ops = generator.operations(count: 400)
        for limit in [16, 17, 40, 100, 1000, 65536] {
            let frames = FrameCodec.encodeFrames(ops, maxFrameBytes: limit)
            var drawing = Drawing(size: size)
            for bytes in frames {
                #expect(!bytes.isEmpty && bytes.count <= limit)
                _ = try drawing.apply(frame: bytes)
            }
            var expected = Drawing(size: size)
            ops.forEach { expected.apply($0) }
            #expect(drawing.compacted() == expected.compacted())
            #expect(drawing.cursor == expected.cursor)
        }
        // Below the minimum the limit is raised so every operation still fits.
        for bytes in FrameCodec.encodeFrames(ops, maxFrameBytes: 1) {
            #expect(bytes.count <= FrameCodec.minimumFrameBytes)
        }
        #expect(FrameCodec.encodeFrames([]).isEmpty)
    }

    @Test func errorDescriptionsAreHumanReadable() {
        #expect(FrameError.empty.description.contains("empty"))
        #expect(FrameError.unknownOpcode(0x2A, offset: 3).description == "unknown opcode 0x2a at byte 3")
        #expect(FrameError.pointOutOfRange(Point(x: 1600, y: 2)).description.contains("(1600, 2)"))
        #expect(FrameError.widthOutOfRange(65).description.contains("1...64"))
        #expect(FrameError.pointCountOutOfRange(0).description.contains("1...1024"))
    }
}
