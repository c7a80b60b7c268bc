/// Counts from validating a frame, for metrics and rate limiting without decoding.
public struct FrameSummary: Hashable, Sendable {
    /// Operations in the frame, whatever their kind.
    public var operations: Int
    /// Points carried: one per BEGIN plus `n` per POINTS.
    public var points: Int
    /// FILL operations, counted apart because each may touch the whole canvas.
    public var fills: Int

    /// Counts start at zero so the scanner can add as it goes.
    public init(operations: Int = 0, points: Int = 0, fills: Int = 0) {
        self.operations = operations
        self.points = points
        self.fills = fills
    }
}
