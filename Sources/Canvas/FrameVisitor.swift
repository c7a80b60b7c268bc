/// Receives the operations of a frame while it is scanned, so validation, decoding into
/// `DrawOperation`s and applying straight into a `Drawing` share one scanning loop.
///
/// The scanner calls the visitor before the frame is known to be valid; visitors that must
/// be all-or-nothing (a `Drawing`) are only handed frames that were validated first.
protocol FrameVisitor {
    mutating func begin(tool: Tool, color: RGB, width: UInt8, at point: Point)
    mutating func pointsStart(count: Int)
    mutating func point(_ point: Point)
    mutating func pointsEnd()
    mutating func end()
    mutating func fill(color: RGB, at point: Point)
    mutating func undo()
    mutating func clear()
}
