/// The colour test and paint of a flood fill over raw RGB bytes.
///
/// Pixels are compared as one 32-bit load masked to 24 bits (little-endian byte order
/// independent because both sides are packed the same way), except the very last pixel,
/// whose 4-byte load would run past the buffer.
struct FillRegion {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    /// At least a row of the fill colour, the source of `paint`.
    let pattern: UnsafeBufferPointer<UInt8>
    let target: RGB
    private let packedTarget: UInt32
    /// Selects the first three channels of a 32-bit load, whatever the byte order.
    private let low24: UInt32
    private let lastPixel: Int

    init(buffer: UnsafeMutableBufferPointer<UInt8>, pattern: UnsafeBufferPointer<UInt8>, target: RGB) {
        self.buffer = buffer
        self.pattern = pattern
        self.target = target
        packedTarget = Self.pack(target.r, target.g, target.b)
        low24 = Self.pack(0xFF, 0xFF, 0xFF)
        lastPixel = buffer.count / 3 - 1
    }

    private static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { bytes in
            bytes[0] = r
            bytes[1] = g
            bytes[2] = b
        }
        return value
    }

    /// Whether the pixel (a flat pixel index) still has the region's colour.
    @inline(__always)
    func inside(_ pixel: Int) -> Bool {
        let index = pixel * 3
        if pixel < lastPixel {
            let word = UnsafeRawBufferPointer(buffer).loadUnaligned(fromByteOffset: index, as: UInt32.self)
            return word & low24 == packedTarget
        }
        return buffer[index] == target.r && buffer[index + 1] == target.g && buffer[index + 2] == target.b
    }

    /// Paints `count` pixels from flat index `pixel` on (one row at most).
    @inline(__always)
    func paint(_ pixel: Int, count: Int) {
        guard count > 0, let source = pattern.baseAddress, let target = buffer.baseAddress,
              count * 3 <= pattern.count, (pixel + count) * 3 <= buffer.count
        else { return }
        (target + pixel * 3).update(from: source, count: count * 3)
    }
}
