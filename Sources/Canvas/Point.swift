/// A position in canvas pixel coordinates; integer positions are pixel centres.
///
/// Coordinates are 32-bit because the wire format carries zigzag 32-bit deltas and
/// legal points may lie outside the canvas (`[-w, 2w) x [-h, 2h)`).
public struct Point: Hashable, Sendable {
    public var x: Int32
    public var y: Int32

    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

extension Point: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}
