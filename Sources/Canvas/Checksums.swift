internal import CZlib

/// The PNG checksums, from zlib (linked for deflate already): CRC-32 of chunks, Adler-32
/// of the zlib stream. The stream's checksum is kept by the encoder because it writes the
/// zlib header and trailer itself (raw deflate inside), so that an unchanged row costs
/// one `adler32_combine` instead of a pass over its bytes.
enum Checksums {
    static func crc32(_ parts: [UInt8]...) -> UInt32 {
        var crc = CZlib.crc32(0, nil, 0)
        for part in parts {
            crc = part.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, uInt($0.count)) }
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// A running Adler-32.
    struct Adler32 {
        private(set) var state: uLong = CZlib.adler32(0, nil, 0)

        var value: UInt32 { UInt32(truncatingIfNeeded: state) }

        mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
            state = CZlib.adler32(state, bytes.baseAddress, uInt(bytes.count))
        }

        /// Appends bytes whose own checksum is already known (`Adler32` of them alone).
        mutating func append(_ other: Adler32, length: Int) {
            state = adler32_combine(state, other.state, .init(length))
        }
    }
}
