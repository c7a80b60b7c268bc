/// Receives the operations of a frame while it is scanned, so validation, decoding into
/// `DrawOperation`s and applying straight into a `Drawing` share one scanning loop.
///
/// The scanner calls the visitor before the frame is known to be valid; visitors that must
/// be all-or-nothing (a `Drawing`) are only handed frames that were validated first.
/// `pressure` is nil for BEGIN and POINTS, the point's factor (1...255) for their pen-pressure
/// forms.
protocol FrameVisitor {
    mutating func begin(tool: Tool, color: RGB, width: UInt8, pressure: UInt8?, at point: Point)
    mutating func pointsStart(count: Int, pressure: Bool)
    mutating func point(_ point: Point, pressure: UInt8?)
    mutating func pointsEnd()
    mutating func end()
    mutating func fill(color: RGB, at point: Point)
    mutating func undo()
    mutating func clear()
}
