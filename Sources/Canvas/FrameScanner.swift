/// The one loop that walks a frame's bytes (protocol section 5.2), checking every rule.
///
/// Bounds are checked explicitly before every read, so random input can only end in a
/// `FrameError`, and the loop always advances, so it cannot hang.
enum FrameScanner {
    /// Scans the whole frame; `cursor` is only updated when the frame is valid.
    static func scan<V: FrameVisitor>(
        _ bytes: UnsafeRawBufferPointer,
        size: CanvasSize,
        cursor: inout StrokeCursor,
        visitor: inout V
    ) throws(FrameError) -> FrameSummary {
        guard !bytes.isEmpty else { throw .empty }
        let limits = PointLimits(size: size)
        var state = cursor
        var summary = FrameSummary()
        var index = 0
        let count = bytes.count
        while index < count {
            let start = index
            let code = bytes[index]
            index += 1
            summary.operations += 1
            switch code {
            case Opcode.begin, Opcode.pressureBegin:
                let hasPressure = code == Opcode.pressureBegin
                guard count - index >= (hasPressure ? 6 : 5) else { throw .truncated(offset: start) }
                let toolByte = bytes[index]
                guard let tool = Tool(rawValue: toolByte) else {
                    throw .invalidTool(toolByte, offset: index)
                }
                let color = RGB(r: bytes[index + 1], g: bytes[index + 2], b: bytes[index + 3])
                let width = bytes[index + 4]
                guard FrameCodec.widthRange.contains(width) else { throw .widthOutOfRange(Int(width)) }
                index += 5
                var pressure: UInt8?
                if hasPressure {
                    guard bytes[index] > 0 else { throw .pressureOutOfRange(offset: start) }
                    pressure = bytes[index]
                    index += 1
                }
                let x = try signed(bytes, &index, operation: start)
                let y = try signed(bytes, &index, operation: start)
                let point = Point(x: x, y: y)
                guard limits.contains(point) else { throw .pointOutOfRange(point) }
                state.isOpen = true
                state.last = point
                summary.points += 1
                summary.strokes += 1
                visitor.begin(tool: tool, color: color, width: width, pressure: pressure, at: point)
            case Opcode.points, Opcode.pressurePoints:
                let hasPressure = code == Opcode.pressurePoints
                guard state.isOpen else { throw .noOpenStroke(offset: start) }
                let n = Int(try unsigned(bytes, &index, operation: start))
                guard n >= 1, n <= FrameCodec.maxPointsPerOperation else {
                    throw .pointCountOutOfRange(n)
                }
                visitor.pointsStart(count: n, pressure: hasPressure)
                var last = state.last
                for _ in 0..<n {
                    let dx = try signed(bytes, &index, operation: start)
                    let dy = try signed(bytes, &index, operation: start)
                    last = Point(x: last.x &+ dx, y: last.y &+ dy)
                    guard limits.contains(last) else { throw .pointOutOfRange(last) }
                    var pressure: UInt8?
                    if hasPressure {
                        guard index < count else { throw .truncated(offset: start) }
                        guard bytes[index] > 0 else { throw .pressureOutOfRange(offset: start) }
                        pressure = bytes[index]
                        index += 1
                    }
                    visitor.point(last, pressure: pressure)
                }
                visitor.pointsEnd()
                state.last = last
                summary.points += n
            case Opcode.end:
                guard state.isOpen else { throw .noOpenStroke(offset: start) }
                state.isOpen = false
                visitor.end()
            case Opcode.fill:
                guard count - index >= 3 else { throw .truncated(offset: start) }
                let color = RGB(r: bytes[index], g: bytes[index + 1], b: bytes[index + 2])
                index += 3
                let x = try unsigned(bytes, &index, operation: start)
                let y = try unsigned(bytes, &index, operation: start)
                let point = Point(x: Int32(clamping: x), y: Int32(clamping: y))
                guard Int(x) < size.width, Int(y) < size.height else { throw .fillOutsideCanvas(point) }
                state.isOpen = false
                summary.fills += 1
                visitor.fill(color: color, at: point)
            case Opcode.undo:
                state.isOpen = false
                summary.removals += 1
                visitor.undo()
            case Opcode.clear:
                state.isOpen = false
                summary.removals += 1
                visitor.clear()
            default:
                throw .unknownOpcode(code, offset: start)
            }
        }
        cursor = state
        return summary
    }

    /// Reads an unsigned LEB128 of at most 5 bytes whose value fits in 32 bits.
    @inline(__always)
    static func unsigned(
        _ bytes: UnsafeRawBufferPointer, _ index: inout Int, operation: Int
    ) throws(FrameError) -> UInt32 {
        let count = bytes.count
        guard index < count else { throw .truncated(offset: operation) }
        let first = bytes[index]
        index += 1
        if first < 0x80 { return UInt32(first) }
        let start = index - 1
        var value = UInt32(first & 0x7F)
        var shift: UInt32 = 7
        while true {
            guard index < count else { throw .truncated(offset: operation) }
            let byte = bytes[index]
            index += 1
            if shift == 28 {
                // The 5th byte holds bits 28...31 only; a continuation bit would mean a 6th byte.
                guard byte <= 0x0F else { throw .varintTooLong(offset: start) }
                return value | UInt32(byte) << 28
            }
            value |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// Reads a zigzag-mapped 32-bit value.
    @inline(__always)
    static func signed(
        _ bytes: UnsafeRawBufferPointer, _ index: inout Int, operation: Int
    ) throws(FrameError) -> Int32 {
        let raw = try unsigned(bytes, &index, operation: operation)
        return Int32(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }
}
