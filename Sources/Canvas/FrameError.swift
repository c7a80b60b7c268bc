/// Why a frame was rejected; nothing of a rejected frame is applied.
///
/// Offsets are byte offsets into the frame so a client developer can find the bad byte.
/// `description` is worded for humans and is what the server sends as the `bad_ops` message.
public enum FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A frame must carry at least one operation.
    case empty
    /// The opcode byte and its offset.
    case unknownOpcode(UInt8, offset: Int)
    /// The operation starting at `offset` needs more bytes than the frame has.
    case truncated(offset: Int)
    /// The varint starting at `offset` does not fit in 32 bits within 5 bytes.
    case varintTooLong(offset: Int)
    /// A POINTS count outside 1...1024.
    case pointCountOutOfRange(Int)
    /// A BEGIN width outside 1...64.
    case widthOutOfRange(Int)
    /// A BEGIN or POINTS point outside `[-w, 2w) x [-h, 2h)`.
    case pointOutOfRange(Point)
    /// A FILL point outside the canvas `[0, w) x [0, h)`.
    case fillOutsideCanvas(Point)
    /// POINTS or END (at `offset`) while no stroke is open.
    case noOpenStroke(offset: Int)
    /// A BEGIN `tool` byte other than 0 (pen) or 1 (eraser); added to the brief's list
    /// because the protocol defines only those two values.
    case invalidTool(UInt8, offset: Int)
    /// A pen-pressure factor of 0 (the operation at `offset`): the range is 1...255.
    case pressureOutOfRange(offset: Int)

    /// What went wrong and where, suitable for the `message` of a `bad_ops` error.
    public var description: String {
        switch self {
        case .empty:
            "empty frame: a frame must hold at least one operation"
        case let .unknownOpcode(code, offset):
            "unknown opcode 0x\(String(code, radix: 16)) at byte \(offset)"
        case let .truncated(offset):
            "operation at byte \(offset) is truncated"
        case let .varintTooLong(offset):
            "varint at byte \(offset) is longer than 5 bytes or exceeds 32 bits"
        case let .pointCountOutOfRange(count):
            "POINTS count \(count) is outside 1...\(FrameCodec.maxPointsPerOperation)"
        case let .widthOutOfRange(width):
            "stroke width \(width) is outside \(FrameCodec.widthRange)"
        case let .pointOutOfRange(point):
            "point \(point) is outside [-w, 2w) x [-h, 2h)"
        case let .fillOutsideCanvas(point):
            "fill point \(point) is outside the canvas"
        case let .noOpenStroke(offset):
            "operation at byte \(offset) continues a stroke but none is open"
        case let .invalidTool(tool, offset):
            "tool \(tool) at byte \(offset) is neither 0 (pen) nor 1 (eraser)"
        case let .pressureOutOfRange(offset):
            "pressure 0 in the operation at byte \(offset) is outside 1...255"
        }
    }
}
