/// A visitor that ignores everything; scanning with it is pure validation.
struct IgnoringVisitor: FrameVisitor {
    func begin(tool: Tool, color: RGB, width: UInt8, pressure: UInt8?, at point: Point) {}
    func pointsStart(count: Int, pressure: Bool) {}
    func point(_ point: Point, pressure: UInt8?) {}
    func pointsEnd() {}
    func end() {}
    func fill(color: RGB, at point: Point) {}
    func undo() {}
    func clear() {}
}
