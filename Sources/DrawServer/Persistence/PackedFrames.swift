import Canvas
import NIOCore

/// Several stroke frames of one room in one database row (`stroke.packed` = 1): for each
/// frame, its time (ms since the turn started) and its length as LEB128 varints, then its
/// bytes. One row per room per batch instead of one per frame: an insert costs a few
/// microseconds however small the frame, and a busy room sends 60 frames a second.
enum PackedFrames {
    struct Corrupt: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "packed stroke frames are cut short or malformed at byte \(offset)" }
    }

    static func pack(_ frames: some Collection<StrokeLog.Frame>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames.reduce(0) { $0 + $1.bytes.count + 4 })
        for frame in frames { append(frame, to: &bytes) }
        return bytes
    }

    /// Appends one frame to a packed run being built in an array (the SQLite batch).
    static func append(_ frame: StrokeLog.Frame, to bytes: inout [UInt8]) {
        writeVarint(UInt64(max(0, frame.at)), to: &bytes)
        writeVarint(UInt64(frame.bytes.count), to: &bytes)
        bytes += frame.bytes
    }

    /// Appends one frame to a packed run being built: the same bytes `pack` writes, without
    /// an array of frames in between (the PostgreSQL store packs every frame a node relays,
    /// on the hot path). One write into the buffer per frame, not one per byte.
    static func append(_ frame: StrokeLog.Frame, to buffer: inout ByteBuffer) {
        let at = UInt64(max(0, frame.at))
        let length = UInt64(frame.bytes.count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 2 * maxVarintBytes + frame.bytes.count) { out in
            var index = writeVarint(at, to: out, at: 0)
            index = writeVarint(length, to: out, at: index)
            frame.bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[index...]).copyMemory(from: $0) }
            return index + frame.bytes.count
        }
    }

    /// The longest LEB128 encoding of a `UInt64`.
    private static let maxVarintBytes = 10

    /// Writes `value` at `index`; returns the index after it. `out` has room for it.
    private static func writeVarint(_ value: UInt64, to out: UnsafeMutableRawBufferPointer, at index: Int) -> Int {
        var (value, index) = (value, index)
        while value >= 0x80 {
            out[index] = UInt8(value & 0x7F) | 0x80
            value >>= 7
            index += 1
        }
        out[index] = UInt8(value)
        return index + 1
    }

    static func unpack(_ bytes: [UInt8]) throws(Corrupt) -> [StrokeLog.Frame] {
        var frames: [StrokeLog.Frame] = []
        var index = 0
        while index < bytes.count {
            let at = try readVarint(bytes, &index)
            let length = try readVarint(bytes, &index)
            guard at <= UInt64(Int.max), length <= UInt64(bytes.count - index) else { throw Corrupt(offset: index) }
            let end = index + Int(length)
            frames.append(StrokeLog.Frame(at: Int(at), bytes: Array(bytes[index..<end])))
            index = end
        }
        return frames
    }

    private static func writeVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func readVarint(_ bytes: [UInt8], _ index: inout Int) throws(Corrupt) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < bytes.count, shift < 64 else { throw Corrupt(offset: index) }
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
