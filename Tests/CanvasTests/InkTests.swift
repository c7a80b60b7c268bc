import Foundation
import Testing
@testable import Canvas

@Suite("Ink: what a drawing costs to render")
struct InkTests {
    let size = CanvasSize(width: 200, height: 150)

    /// The ink of the same canvas built from scratch (its compacted operations).
    func recounted(_ drawing: Drawing) -> Int {
        var fresh = Drawing(size: size)
        for op in drawing.compacted() { fresh.apply(op) }
        return fresh.ink
    }

    func randomOperation(_ rng: inout SplitMix64, open: Bool) -> DrawOperation {
        func point() -> Point {
            Point(x: Int32(Int(rng.next() % 600)) - 200, y: Int32(Int(rng.next() % 450)) - 150)
        }
        switch rng.next() % 10 {
        case 0, 1: return .begin(tool: .pen, color: .black, width: UInt8(1 + rng.next() % 64), at: point())
        case 2, 3, 4: return open ? .points((0..<Int(1 + rng.next() % 20)).map { _ in point() }) : .end
        case 5: return .end
        case 6: return .fill(color: .white, at: Point(x: Int32(rng.next() % 200), y: Int32(rng.next() % 150)))
        case 7, 8: return .undo
        default: return rng.next() % 4 == 0 ? .clear : .end
        }
    }

    @Test func theRunningTotalMatchesARecountThroughUndoAndClear() {
        for seed in 1...40 as ClosedRange<UInt64> {
            var rng = SplitMix64(seed: seed)
            var drawing = Drawing(size: size)
            for _ in 0..<200 {
                drawing.apply(randomOperation(&rng, open: drawing.cursor.isOpen))
                #expect(drawing.ink == recounted(drawing), "seed \(seed)")
                #expect(drawing.ink >= 0)
            }
        }
    }

    @Test func aFramesCostIsWhatApplyingItAdds() throws {
        for seed in 1...40 as ClosedRange<UInt64> {
            var rng = SplitMix64(seed: seed)
            var drawing = Drawing(size: size)
            for _ in 0..<60 {
                var ops: [DrawOperation] = []
                var open = drawing.cursor.isOpen
                for _ in 0..<Int(1 + rng.next() % 4) {
                    let op = randomOperation(&rng, open: open)
                    if case .undo = op { continue }
                    if case .clear = op { continue }
                    if case .end = op, !open { continue }
                    ops.append(op)
                    switch op {
                    case .begin: open = true
                    case .end, .fill: open = false
                    default: break
                    }
                }
                guard !ops.isEmpty else { continue }
                var cursor = drawing.cursor
                let frame = FrameCodec.encode(ops, cursor: &cursor)
                let cost = frame.withUnsafeBytes { drawing.inkCost(of: $0) }
                let before = drawing.ink
                _ = try drawing.apply(frame: frame)
                #expect(drawing.ink - before == cost, "seed \(seed): \(ops)")
            }
        }
    }

    @Test func oneSegmentIsItsLengthTimesItsWidth() {
        var drawing = Drawing(size: size)
        drawing.apply(.begin(tool: .pen, color: .black, width: 10, at: Point(x: 0, y: 0)))
        #expect(drawing.ink == 100)
        drawing.apply(.points([Point(x: 30, y: 40)]))
        #expect(drawing.ink == 100 + 500)
        drawing.apply(.fill(color: .white, at: Point(x: 1, y: 1)))
        #expect(drawing.ink == 600 + 200 * 150)
        drawing.apply(.undo)
        #expect(drawing.ink == 600)
        drawing.apply(.clear)
        #expect(drawing.ink == 0)
    }

    @Test func humanDrawingsUseAFewCanvasesOfInk() throws {
        // The sample drawings (40 strokes of widths 2 to 16, two fills) against the default
        // cap of 200 canvases.
        for seed in 1...5 as ClosedRange<UInt64> {
            let drawing = try SampleDrawing.make(seed: seed).drawing()
            let areas = Double(drawing.ink) / Double(drawing.size.width * drawing.size.height)
            print("sample drawing \(seed): \(drawing.pointCount) points, ink \(String(format: "%.2f", areas)) canvases")
            #expect(areas < 10)
        }
    }
}
