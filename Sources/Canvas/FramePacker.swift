/// Packs operations into frames no longer than a limit, for `encodeFrames`.
struct FramePacker {
    let limit: Int
    private var frames: [[UInt8]] = []
    private var writer = FrameWriter()

    init(limit: Int) {
        self.limit = limit
    }

    mutating func add(_ op: DrawOperation) {
        switch op {
        case let .points(points):
            addPoints(points, point: { $0 }, extraBytes: 0) { writer, run in writer.writePoints(run) }
        case let .pressurePoints(points):
            // One byte more a point: its pressure.
            addPoints(points, point: \.point, extraBytes: 1) { writer, run in writer.writePressurePoints(run) }
        default:
            var probe = FrameWriter(cursor: writer.cursor)
            probe.write(op)
            if writer.bytes.count + probe.bytes.count > limit {
                flush()
            }
            writer.write(op)
        }
    }

    /// Splits a points operation into runs that fill each frame up to the limit.
    private mutating func addPoints<Element>(
        _ points: [Element], point: (Element) -> Point, extraBytes: Int, write: (inout FrameWriter, ArraySlice<Element>) -> Void
    ) {
        var start = points.startIndex
        while start < points.endIndex {
            // Opcode plus the longest count varint (1024 needs 2 bytes).
            let room = limit - writer.bytes.count - 3
            var stop = start
            var used = 0
            var last = writer.cursor.last
            while stop < points.endIndex, stop - start < FrameCodec.maxPointsPerOperation {
                let next = point(points[stop])
                let cost = FrameWriter.unsignedLength(FrameWriter.zigzag(next.x &- last.x))
                    + FrameWriter.unsignedLength(FrameWriter.zigzag(next.y &- last.y)) + extraBytes
                guard used + cost <= room else { break }
                used += cost
                last = next
                stop += 1
            }
            if stop == start {
                guard writer.bytes.isEmpty else {
                    flush()
                    continue
                }
                // A fresh frame always holds one point (3 + 11 <= 16); never loop forever.
                stop = start + 1
            }
            write(&writer, points[start..<stop])
            start = stop
        }
    }

    /// Closes the current frame; the cursor carries on into the next one.
    private mutating func flush() {
        guard !writer.bytes.isEmpty else { return }
        frames.append(writer.bytes)
        writer.bytes = []
    }

    mutating func finish() -> [[UInt8]] {
        flush()
        return frames
    }
}
