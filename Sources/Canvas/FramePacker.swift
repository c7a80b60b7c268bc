/// Packs operations into frames no longer than a limit, for `encodeFrames`.
struct FramePacker {
    let limit: Int
    private var frames: [[UInt8]] = []
    private var writer = FrameWriter()

    init(limit: Int) {
        self.limit = limit
    }

    mutating func add(_ op: DrawOperation) {
        guard case let .points(points) = op else {
            var probe = FrameWriter(cursor: writer.cursor)
            probe.write(op)
            if writer.bytes.count + probe.bytes.count > limit {
                flush()
            }
            writer.write(op)
            return
        }
        var start = points.startIndex
        while start < points.endIndex {
            // Opcode plus the longest count varint (1024 needs 2 bytes).
            let room = limit - writer.bytes.count - 3
            var stop = start
            var used = 0
            var last = writer.cursor.last
            while stop < points.endIndex, stop - start < FrameCodec.maxPointsPerOperation {
                let point = points[stop]
                let cost = FrameWriter.unsignedLength(FrameWriter.zigzag(point.x &- last.x))
                    + FrameWriter.unsignedLength(FrameWriter.zigzag(point.y &- last.y))
                guard used + cost <= room else { break }
                used += cost
                last = point
                stop += 1
            }
            if stop == start {
                guard writer.bytes.isEmpty else {
                    flush()
                    continue
                }
                // A fresh frame always holds one point (3 + 10 <= 16); never loop forever.
                stop = start + 1
            }
            writer.writePoints(points[start..<stop])
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
