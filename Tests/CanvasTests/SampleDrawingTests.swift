import Testing
@testable import Canvas

@Suite("Sample drawing")
struct SampleDrawingTests {
    @Test func isDeterministicPerSeed() {
        #expect(SampleDrawing.make(seed: 1) == SampleDrawing.make(seed: 1))
        #expect(SampleDrawing.make(seed: 1) != SampleDrawing.make(seed: 2))
    }

    @Test(arguments: [1, 2, 3, 99] as [UInt64])
    func looksLikeAHumanDrawing(seed: UInt64) throws {
        let log = SampleDrawing.make(seed: seed)
        #expect(log.size == .standard)
        var cursor = StrokeCursor()
        var ops: [DrawOperation] = []
        for frame in log.frames {
            ops += try FrameCodec.decode(frame.bytes, size: log.size, cursor: &cursor)
        }
        var strokes = 0, points = 0, fills = 0, undos = 0, erasers = 0
        var widths = Set<UInt8>()
        for op in ops {
            switch op {
            case let .begin(tool, _, width, _):
                strokes += 1
                points += 1
                widths.insert(width)
                if tool == .eraser { erasers += 1 }
            case let .points(run): points += run.count
            case .fill: fills += 1
            case .undo: undos += 1
            case .end, .clear: break
            case .pressureBegin, .pressurePoints: Issue.record("the samples have no pen pressure")
            }
        }
        #expect(strokes == 40)
        #expect((2000...3000).contains(points), "\(points) points")
        #expect(widths.min() == 2 && widths.max() == 16)
        #expect(fills == 2 && undos == 1 && erasers == 1)
        // Timed like a person: non-decreasing, frames a few tens of ms apart, a minute or so long.
        let times = log.frames.map(\.at)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect((20_000...120_000).contains(times.last ?? 0))
        let drawing = try log.drawing()
        #expect(drawing.visibleItemCount == 41)
    }
}
