/// Opcodes of protocol section 5.2, as plain constants so `switch` matches bytes directly.
enum Opcode {
    static let begin: UInt8 = 0x01
    static let points: UInt8 = 0x02
    static let end: UInt8 = 0x03
    static let fill: UInt8 = 0x04
    static let undo: UInt8 = 0x05
    static let clear: UInt8 = 0x06
    /// Pen pressure (docs/PROTOCOL.md 12.4): BEGIN and POINTS with a width factor per point.
    static let pressureBegin: UInt8 = 0x07
    static let pressurePoints: UInt8 = 0x08
}
