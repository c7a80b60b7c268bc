/// Appends operations to a byte buffer in wire format, tracking the cursor like the decoder does.
struct FrameWriter {
    var bytes: [UInt8] = []
    var cursor: StrokeCursor

    init(cursor: StrokeCursor = StrokeCursor()) {
        self.cursor = cursor
    }

    /// Writes `op`; POINTS longer than the protocol's maximum become several POINTS ops.
    mutating func write(_ op: DrawOperation) {
        switch op {
        case let .begin(tool, color, width, point):
            writeBegin(tool: tool, color: color, width: width, pressure: nil, at: point)
        case let .points(points):
            var start = points.startIndex
            while start < points.endIndex {
                let stop = min(start + FrameCodec.maxPointsPerOperation, points.endIndex)
                writePoints(points[start..<stop])
                start = stop
            }
        case .end:
            bytes.append(Opcode.end)
            cursor.isOpen = false
        case let .fill(color, point):
            bytes.append(Opcode.fill)
            appendColor(color)
            // The wire cannot carry negative fill points; the decoder rejects them anyway.
            appendUnsigned(UInt32(clamping: point.x))
            appendUnsigned(UInt32(clamping: point.y))
            cursor.isOpen = false
        case .undo:
            bytes.append(Opcode.undo)
            cursor.isOpen = false
        case .clear:
            bytes.append(Opcode.clear)
            cursor.isOpen = false
        case let .pressureBegin(tool, color, width, pressure, point):
            writeBegin(tool: tool, color: color, width: width, pressure: max(pressure, 1), at: point)
        case let .pressurePoints(points):
            var start = points.startIndex
            while start < points.endIndex {
                let stop = min(start + FrameCodec.maxPointsPerOperation, points.endIndex)
                writePressurePoints(points[start..<stop])
                start = stop
            }
        }
    }

    /// Writes one PRESSURE_POINTS op; the caller keeps `points.count` within 1...1024.
    mutating func writePressurePoints(_ points: ArraySlice<PressurePoint>) {
        guard !points.isEmpty else { return }
        bytes.append(Opcode.pressurePoints)
        appendUnsigned(UInt32(points.count))
        var last = cursor.last
        for entry in points {
            appendSigned(entry.point.x &- last.x)
            appendSigned(entry.point.y &- last.y)
            bytes.append(max(entry.pressure, 1))
            last = entry.point
        }
        cursor.last = last
    }

    /// BEGIN, or PRESSURE_BEGIN with `pressure`.
    private mutating func writeBegin(tool: Tool, color: RGB, width: UInt8, pressure: UInt8?, at point: Point) {
        bytes.append(pressure == nil ? Opcode.begin : Opcode.pressureBegin)
        bytes.append(tool.rawValue)
        appendColor(color)
        bytes.append(width)
        if let pressure { bytes.append(pressure) }
        appendSigned(point.x)
        appendSigned(point.y)
        cursor.isOpen = true
        cursor.last = point
    }

    /// Writes one POINTS op; the caller keeps `points.count` within 1...1024.
    mutating func writePoints(_ points: ArraySlice<Point>) {
        guard !points.isEmpty else { return }
        bytes.append(Opcode.points)
        appendUnsigned(UInt32(points.count))
        var last = cursor.last
        for point in points {
            appendSigned(point.x &- last.x)
            appendSigned(point.y &- last.y)
            last = point
        }
        cursor.last = last
    }

    private mutating func appendColor(_ color: RGB) {
        bytes.append(color.r)
        bytes.append(color.g)
        bytes.append(color.b)
    }

    mutating func appendUnsigned(_ value: UInt32) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func appendSigned(_ value: Int32) {
        appendUnsigned(Self.zigzag(value))
    }

    static func zigzag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    /// Encoded length of a uvarint, for packing frames without trial encoding.
    static func unsignedLength(_ value: UInt32) -> Int {
        switch value {
        case ..<0x80: 1
        case ..<0x4000: 2
        case ..<0x20_0000: 3
        case ..<0x1000_0000: 4
        default: 5
        }
    }
}
