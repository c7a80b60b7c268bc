/// The CRC-32 of PNG chunks (ISO 3309 / ITU-T V.42, reflected polynomial 0xEDB88320).
///
/// Table-driven, slicing by 8: eight 256-entry tables let one step consume eight bytes,
/// which matters because the IDAT chunk of a canvas is tens to hundreds of kilobytes.
struct CRC32 {
    /// Eight tables back to back: entry `k * 256 + b` is the CRC of byte `b` followed by `k`
    /// zero bytes. An immutable `let` built once on first use; the first 256 entries are the
    /// classic byte-at-a-time table.
    static let table: [UInt32] = {
        let base: [UInt32] = (0..<256).map { index in
            var value = UInt32(index)
            for _ in 0..<8 {
                value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
            }
            return value
        }
        var tables = [base]
        for _ in 1..<8 {
            let previous = tables[tables.count - 1]
            tables.append(previous.map { base[Int($0 & 0xFF)] ^ ($0 >> 8) })
        }
        return tables.flatMap { $0 }
    }()

    private(set) var state: UInt32 = 0xFFFF_FFFF

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = state
        Self.table.withUnsafeBufferPointer { table in
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let low = crc ^ UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int(high >> 8 & 0xFF)]
                    ^ table[256 + Int(high >> 16 & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        state = crc
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    var value: UInt32 { state ^ 0xFFFF_FFFF }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
