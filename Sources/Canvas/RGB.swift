/// An 8-bit-per-channel colour, the only colour model of the protocol.
public struct RGB: Hashable, Sendable {
    /// Red, 0...255, as on the wire.
    public var r: UInt8
    /// Green, 0...255, as on the wire.
    public var g: UInt8
    /// Blue, 0...255, as on the wire.
    public var b: UInt8

    /// A colour from its wire bytes.
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// The background of every new turn and the colour the eraser paints.
    public static let white = RGB(r: 255, g: 255, b: 255)
    /// The usual pen colour, handy in tests and samples.
    public static let black = RGB(r: 0, g: 0, b: 0)
}

extension RGB: CustomStringConvertible {
    /// `#rrggbb`, the form people paste into colour pickers.
    public var description: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for channel in [r, g, b] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0x0F)])
        }
        return text
    }
}
