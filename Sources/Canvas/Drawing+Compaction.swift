extension Drawing {
    /// The shortest operation sequence that reproduces the current canvas on a white canvas:
    /// undone items and everything before the last CLEAR are gone; an OPEN stroke stays open
    /// (no END) so live POINTS that follow still apply. A stroke's points come as one
    /// `.points` op, which the encoder splits at 1024.
    public func compacted() -> [DrawOperation] {
        var ops: [DrawOperation] = []
        ops.reserveCapacity(items.count * 3 + 2)
        for item in items {
            item.appendOperations(to: &ops)
        }
        openStroke?.appendOperations(to: &ops, closed: false)
        return ops
    }

    /// `compacted()` as wire frames for a late joiner (protocol section 5.3).
    public func compactedFrames(maxFrameBytes: Int = FrameCodec.defaultMaxFrameBytes) -> [[UInt8]] {
        FrameCodec.encodeFrames(compacted(), maxFrameBytes: maxFrameBytes)
    }
}
