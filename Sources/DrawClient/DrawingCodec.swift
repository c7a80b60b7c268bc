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

/// Decodes the drawing frames a client receives, with the same validation as the server.
///
/// Feed it every binary frame in order; call `reset` on `canvas` (and on a new `turn`).
public struct DrawingDecoder: Sendable {
    public var size: CanvasSize
    public private(set) var cursor = StrokeCursor()

    public init(size: CanvasSize = .standard) { self.size = size }

    /// The frame's operations (POINTS as absolute positions); throws for an invalid frame
    /// and leaves the decoder as it was.
    public mutating func decode(_ frame: [UInt8]) throws(FrameError) -> [DrawOperation] {
        try FrameCodec.decode(frame, size: size, cursor: &cursor)
    }

    public mutating func reset(size: CanvasSize? = nil) {
        if let size { self.size = size }
        cursor = StrokeCursor()
    }
}
