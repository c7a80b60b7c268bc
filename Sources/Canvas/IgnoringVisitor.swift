/// A visitor that ignores everything; scanning with it is pure validation.
struct IgnoringVisitor: FrameVisitor {
    func begin(tool: Tool, color: RGB, width: UInt8, at point: Point) {}
    func pointsStart(count: Int) {}
    func point(_ point: Point) {}
    func pointsEnd() {}
    func end() {}
    func fill(color: RGB, at point: Point) {}
    func undo() {}
    func clear() {}
}
