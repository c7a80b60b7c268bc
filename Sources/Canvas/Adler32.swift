/// The zlib stream checksum (RFC 1950), kept by the PNG encoder itself: runs of zero bytes
/// (rows identical to the row above) advance it in O(1), and other rows are summed in
/// blocks whose inner loop has no carried dependency, so the compiler can vectorise it.
struct Adler32 {
    private static let modulus: UInt32 = 65521
    /// The longest block whose weighted sum cannot overflow 32 bits (255 * n(n+1)/2 < 2^32).
    private static let block = 5552

    private(set) var value: UInt32 = 1

    /// Adds bytes. Per block of n bytes: a' = a + Σb, b' = b + n·a + Σ (n - i)·b_i.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var next = bytes.baseAddress else { return }
        var a = value & 0xFFFF
        var b = value >> 16
        var remaining = bytes.count
        while remaining > 0 {
            let count = min(Self.block, remaining)
            var sum: UInt32 = 0
            var weighted: UInt32 = 0
            var weight = UInt32(truncatingIfNeeded: count)
            for offset in 0..<count {
                let byte = UInt32(next[offset])
                sum &+= byte
                weighted &+= byte &* weight
                weight &-= 1
            }
            b = (b + UInt32(UInt64(count) * UInt64(a) % UInt64(Self.modulus)) + weighted % Self.modulus) % Self.modulus
            a = (a + sum % Self.modulus) % Self.modulus
            next += count
            remaining -= count
        }
        value = b << 16 | a
    }

    /// Adds one byte followed by `count` zero bytes: zeros leave `a` alone and add `a` to `b`
    /// once each.
    mutating func update(byte: UInt8, thenZeros count: Int) {
        let modulus = UInt64(Self.modulus)
        var a = UInt64(value & 0xFFFF)
        var b = UInt64(value >> 16)
        a = (a + UInt64(byte)) % modulus
        b = (b + a) % modulus
        b = (b + UInt64(count) % modulus * a) % modulus
        value = UInt32(b << 16 | a)
    }
}
