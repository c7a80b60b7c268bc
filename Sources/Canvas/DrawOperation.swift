/// One protocol operation (section 5.2).
///
/// POINTS are stored as ABSOLUTE positions: the decoder resolves the wire deltas so that
/// operations can be reordered, compacted and rendered without carrying a cursor around.
public enum DrawOperation: Hashable, Sendable {
    case begin(tool: Tool, color: RGB, width: UInt8, at: Point)
    /// May hold more than 1024 points in memory; the encoder splits it into legal POINTS ops.
    case points([Point])
    case end
    case fill(color: RGB, at: Point)
    case undo
    case clear
}
