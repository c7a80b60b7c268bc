/// Decoder state carried between frames of one drawing: whether a stroke is open and its last point.
///
/// POINTS carry deltas, so a frame can only be decoded knowing where the previous frame
/// left the pen; the cursor is that knowledge and nothing more.
public struct StrokeCursor: Hashable, Sendable {
    /// Whether POINTS and END are currently legal.
    public var isOpen: Bool
    /// The last point of the open (or most recently closed) stroke; deltas are relative to it.
    public var last: Point

    /// The state at the start of a turn: no stroke open.
    public init() {
        isOpen = false
        last = Point(x: 0, y: 0)
    }
}
