/// The binary drawing format of protocol section 5.2.
public enum FrameCodec {
    /// The largest `n` a POINTS op may carry.
    public static let maxPointsPerOperation = 1024
    /// Legal BEGIN widths.
    public static let widthRange: ClosedRange<UInt8> = 1...64
    /// The protocol's default binary frame limit.
    public static let defaultMaxFrameBytes = 65536
    /// The longest single operation other than POINTS (BEGIN with two 5-byte varints);
    /// `encodeFrames` never makes frames smaller than this so every operation fits.
    public static let minimumFrameBytes = 16

    /// Validates and decodes a whole frame; on error `cursor` is left unchanged and nothing is returned.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, size: CanvasSize, cursor: inout StrokeCursor
    ) throws(FrameError) -> [DrawOperation] {
        var collector = OperationCollector()
        _ = try FrameScanner.scan(bytes, size: size, cursor: &cursor, visitor: &collector)
        return collector.operations
    }

    /// Validates and decodes a whole frame; on error `cursor` is left unchanged and nothing is returned.
    public static func decode(
        _ bytes: [UInt8], size: CanvasSize, cursor: inout StrokeCursor
    ) throws(FrameError) -> [DrawOperation] {
        try withBuffer(bytes) { buffer throws(FrameError) in
            try decode(buffer, size: size, cursor: &cursor)
        }
    }

    /// `decode` that also returns the counts `validate` would, in the same single pass.
    static func decodeWithSummary(
        _ bytes: [UInt8], size: CanvasSize, cursor: inout StrokeCursor
    ) throws(FrameError) -> (operations: [DrawOperation], summary: FrameSummary) {
        try withBuffer(bytes) { buffer throws(FrameError) in
            var collector = OperationCollector()
            let summary = try FrameScanner.scan(buffer, size: size, cursor: &cursor, visitor: &collector)
            return (collector.operations, summary)
        }
    }

    /// Validation only, no allocation (the relay hot path); same acceptance rules as `decode`.
    public static func validate(
        _ bytes: UnsafeRawBufferPointer, size: CanvasSize, cursor: inout StrokeCursor
    ) throws(FrameError) -> FrameSummary {
        var visitor = IgnoringVisitor()
        return try FrameScanner.scan(bytes, size: size, cursor: &cursor, visitor: &visitor)
    }

    /// Validation only; same acceptance rules as `decode`.
    public static func validate(
        _ bytes: [UInt8], size: CanvasSize, cursor: inout StrokeCursor
    ) throws(FrameError) -> FrameSummary {
        try withBuffer(bytes) { buffer throws(FrameError) in
            try validate(buffer, size: size, cursor: &cursor)
        }
    }

    /// Encodes operations, POINTS deltas computed from `cursor` (which is advanced like the
    /// decoder would); POINTS over 1024 become several POINTS ops, empty POINTS nothing.
    ///
    /// Operations are written as given: a sequence the decoder would reject stays rejected.
    public static func encode(_ ops: [DrawOperation], cursor: inout StrokeCursor) -> [UInt8] {
        var writer = FrameWriter(cursor: cursor)
        for op in ops {
            writer.write(op)
        }
        cursor = writer.cursor
        return writer.bytes
    }

    /// Encodes into frames of at most `maxFrameBytes` (never below `minimumFrameBytes`),
    /// starting from a fresh cursor, never splitting inside an operation: long POINTS runs
    /// are cut into several POINTS ops at frame boundaries instead.
    public static func encodeFrames(_ ops: [DrawOperation], maxFrameBytes: Int = defaultMaxFrameBytes) -> [[UInt8]] {
        var packer = FramePacker(limit: max(maxFrameBytes, minimumFrameBytes))
        for op in ops {
            packer.add(op)
        }
        return packer.finish()
    }

    /// Runs `body` on the array's bytes with typed throws preserved.
    private static func withBuffer<R>(
        _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(FrameError) -> R
    ) throws(FrameError) -> R {
        let result: Result<R, FrameError> = bytes.withUnsafeBytes { buffer in
            do throws(FrameError) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
