import Testing
@testable import Canvas

@Suite("Compaction properties")
struct CompactionPropertyTests {
    let size = CanvasSize(width: 40, height: 30)

    /// `pressure`: the strokes mix pen pressure in (docs/PROTOCOL.md 12.4).
    @Test(arguments: 0..<8, [false, true])
    func compactedRendersLikeTheFullLogAndIsIdempotent(batch: Int, pressure: Bool) throws {
        for seed in (batch * 50)..<(batch * 50 + 50) {
            var generator = OperationGenerator(seed: UInt64(seed), size: size, valid: seed % 3 != 0, pressure: pressure)
            let ops = generator.operations(count: 10 + seed % 70)
            var drawing = Drawing(size: size)
            var reference = SnapshotReference(size: size)
            for op in ops {
                drawing.apply(op)
                reference.apply(op)
            }
            let full = Renderer.render(ops, size: size)
            let compacted = drawing.compacted()
            #expect(Renderer.render(compacted, size: size).pixels == full.pixels, "seed \(seed)")
            #expect(reference.finished().pixels == full.pixels, "seed \(seed): semantics differ from snapshots")
            #expect(!compacted.contains(.undo) && !compacted.contains(.clear))
            // Idempotent: compacting a drawing built from the compacted ops changes nothing.
            var again = Drawing(size: size)
            compacted.forEach { again.apply($0) }
            #expect(again.compacted() == compacted, "seed \(seed)")
            #expect(again.cursor.isOpen == drawing.cursor.isOpen)
            // And over the wire: the compacted frames decode to the same drawing.
            var wire = Drawing(size: size)
            for bytes in drawing.compactedFrames(maxFrameBytes: 64) {
                _ = try wire.apply(frame: bytes)
            }
            #expect(wire.compacted() == compacted, "seed \(seed)")
            #expect(wire.visibleItemCount == drawing.visibleItemCount)
            #expect(wire.pointCount == drawing.pointCount)
        }
    }

    @Test func compactionDropsUndoneAndClearedWork() {
        var generator = OperationGenerator(seed: 99, size: size)
        var drawing = Drawing(size: size)
        generator.operations(count: 300).forEach { drawing.apply($0) }
        drawing.apply(.clear)
        #expect(drawing.compacted().isEmpty)
        #expect(drawing.compactedFrames().isEmpty)
        #expect(drawing.pointCount == 0)
    }
}
