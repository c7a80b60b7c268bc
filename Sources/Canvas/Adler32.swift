internal import CZlib

/// The zlib stream checksum, kept by the PNG encoder itself so runs of zero bytes (rows
/// identical to the row above) advance it in O(1) instead of being summed byte by byte.
struct Adler32 {
    private static let modulus: UInt64 = 65521
    private(set) var value: UInt32 = 1

    /// Adds bytes, using zlib's optimised loop.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        value = UInt32(truncatingIfNeeded: adler32(uLong(value), bytes.baseAddress, uInt(bytes.count)))
    }

    /// Adds one byte followed by `count` zero bytes: `a` is unchanged by zeros and `b` grows
    /// by `a` for each of them.
    mutating func update(byte: UInt8, thenZeros count: Int) {
        var a = UInt64(value & 0xFFFF)
        var b = UInt64(value >> 16)
        a = (a + UInt64(byte)) % Self.modulus
        b = (b + a) % Self.modulus
        b = (b + UInt64(count) % Self.modulus * a) % Self.modulus
        value = UInt32(b << 16 | a)
    }
}
