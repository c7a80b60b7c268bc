import CZlib

/// A minimal PNG reader for tests, independent of the encoder: walks the chunks, checks every
/// CRC with zlib's `crc32`, inflates the IDAT data with zlib and undoes all five filter types.
enum PNGTestDecoder {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        guard png.count >= 8, Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure(description: "bad signature")
        }
        var chunks: [Chunk] = []
        var offset = 8
        while offset < png.count {
            guard offset + 12 <= png.count else { throw Failure(description: "truncated chunk header") }
            let length = Int(readUInt32(png, offset))
            guard offset + 12 + length <= png.count else { throw Failure(description: "truncated chunk") }
            let typeAndData = Array(png[(offset + 4)..<(offset + 8 + length)])
            let expected = readUInt32(png, offset + 8 + length)
            let actual = typeAndData.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let type = String(decoding: typeAndData[0..<4], as: UTF8.self)
            guard expected == actual else { throw Failure(description: "bad CRC in \(type)") }
            chunks.append(Chunk(type: type, data: Array(typeAndData[4...])))
            offset += 12 + length
        }
        return chunks
    }

    /// Decodes an 8-bit RGB, non-interlaced PNG to raw pixels.
    static func decode(_ png: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let chunks = try chunks(png)
        guard let header = chunks.first, header.type == "IHDR", header.data.count == 13 else {
            throw Failure(description: "IHDR must come first")
        }
        guard chunks.last?.type == "IEND" else { throw Failure(description: "IEND must come last") }
        let width = Int(readUInt32(header.data, 0))
        let height = Int(readUInt32(header.data, 4))
        guard Array(header.data[8...]) == [8, 2, 0, 0, 0] else { throw Failure(description: "not 8-bit RGB") }
        let compressed = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let stride = width * 3 + 1
        var raw = [UInt8](repeating: 0, count: stride * height + 1)
        var rawLength = uLongf(raw.count)
        let status = compressed.withUnsafeBufferPointer { input in
            raw.withUnsafeMutableBufferPointer { output in
                uncompress(output.baseAddress, &rawLength, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK else { throw Failure(description: "zlib status \(status)") }
        guard Int(rawLength) == stride * height else { throw Failure(description: "inflated \(rawLength) bytes") }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let rowBytes = width * 3
        // Buffer pointers: this loop over every byte dominated the debug-build suite.
        try raw.withUnsafeBufferPointer { raw in
            try pixels.withUnsafeMutableBufferPointer { pixels in
                for y in 0..<height {
                    let filter = raw[y * stride]
                    for i in 0..<rowBytes {
                        let value = raw[y * stride + 1 + i]
                        let left = i >= 3 ? Int(pixels[y * rowBytes + i - 3]) : 0
                        let up = y > 0 ? Int(pixels[(y - 1) * rowBytes + i]) : 0
                        let upLeft = (y > 0 && i >= 3) ? Int(pixels[(y - 1) * rowBytes + i - 3]) : 0
                        let predictor: Int
                        switch filter {
                        case 0: predictor = 0
                        case 1: predictor = left
                        case 2: predictor = up
                        case 3: predictor = (left + up) / 2
                        case 4:
                            let p = left + up - upLeft
                            let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
                            predictor = pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft)
                        default: throw Failure(description: "filter \(filter)")
                        }
                        pixels[y * rowBytes + i] = UInt8(truncatingIfNeeded: Int(value) + predictor)
                    }
                }
            }
        }
        return (width, height, pixels)
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
