/// A position in canvas pixel coordinates; integer positions are pixel centres.
///
/// Coordinates are 32-bit because the wire format carries zigzag 32-bit deltas and
/// legal points may lie outside the canvas (`[-w, 2w) x [-h, 2h)`).
public struct Point: Hashable, Sendable {
    /// Column, growing rightwards from the left edge.
    public var x: Int32
    /// Row, growing downwards from the top edge (protocol 5.1: origin top-left).
    public var y: Int32

    /// A point; any values are representable, the decoder decides which are legal.
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

extension Point: CustomStringConvertible {
    /// `(x, y)`, as error messages show points.
    public var description: String { "(\(x), \(y))" }
}
