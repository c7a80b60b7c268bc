import Canvas

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
