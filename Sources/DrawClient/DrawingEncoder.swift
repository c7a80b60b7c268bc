// The drawing types and the binary codec come from Canvas (protocol section 5.2), so a
// client encodes and decodes exactly what the server validates.
// Re-exported whole: an app also gets the rasteriser and PNG encoder to show the canvas.
@_exported import Canvas

/// Encodes a drawer's operations into binary frames, keeping the open stroke across
/// frames (POINTS are deltas from the previous point of the open stroke).
public struct DrawingEncoder: Sendable {
    public private(set) var cursor = StrokeCursor()

    public init() {}

    /// One frame holding `operations`, in order.
    public mutating func encode(_ operations: [DrawOperation]) -> [UInt8] {
        FrameCodec.encode(operations, cursor: &cursor)
    }

    /// A new canvas (a new turn): no stroke is open.
    public mutating func reset() { cursor = StrokeCursor() }
}
