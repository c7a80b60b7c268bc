/// Counts from validating a frame, for metrics, rate limiting and size caps without decoding.
public struct FrameSummary: Hashable, Sendable {
    /// Operations in the frame, whatever their kind.
    public var operations: Int
    /// Points carried: one per BEGIN plus `n` per POINTS.
    public var points: Int
    /// FILL operations, counted apart because each may touch the whole canvas.
    public var fills: Int
    /// BEGIN operations: strokes the frame starts.
    public var strokes: Int
    /// UNDO and CLEAR operations: a frame without them only adds to the canvas.
    public var removals: Int

    /// Counts start at zero so the scanner can add as it goes.
    public init(operations: Int = 0, points: Int = 0, fills: Int = 0, strokes: Int = 0, removals: Int = 0) {
        self.operations = operations
        self.points = points
        self.fills = fills
        self.strokes = strokes
        self.removals = removals
    }
}
