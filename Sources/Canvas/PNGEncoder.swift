internal import CZlib

/// PNG writer tuned for line art: 8-bit RGB (colour type 2), one zlib stream in one IDAT.
///
/// Filters: Sub on the first row, Up on the others; a row identical to the one above (most
/// of a sketch) is Up with all-zero data and is not even subtracted. zlib runs at level 1
/// with `Z_RLE`, which on such rows of zeros compresses about as well as the default
/// strategy at a fraction of the time.
public enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The complete PNG file: signature, IHDR, one IDAT, IEND.
    public static func encode(_ raster: Raster) -> [UInt8] {
        var png = signature
        appendChunk("IHDR", header(width: raster.width, height: raster.height), to: &png)
        appendChunk("IDAT", compressedScanlines(raster), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The zlib stream (RFC 1950) of the filtered scanlines (each a filter-type byte and the
    /// row's bytes), fed to zlib row by row so no filtered copy of the image is allocated.
    /// zlib writes raw deflate; the 2-byte header and the Adler-32 trailer are ours, so that
    /// unchanged rows cost O(1) in the checksum.
    static func compressedScanlines(_ raster: Raster) -> [UInt8] {
        var stream = z_stream()
        let level: Int32 = 1
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_RLE, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return [] }
        defer { deflateEnd(&stream) }
        var sink = DeflateSink()
        var checksum = Checksums.Adler32()
        let rowBytes = raster.width * 3
        var filtered = [UInt8](repeating: 0, count: rowBytes + 1)
        var unchanged = [UInt8](repeating: 0, count: rowBytes + 1)
        unchanged[0] = 2  // Up, and every difference is zero
        var unchangedChecksum = Checksums.Adler32()
        unchanged.withUnsafeBufferPointer { unchangedChecksum.update($0) }
        raster.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<raster.height {
                let flush = y == raster.height - 1 ? Z_FINISH : Z_NO_FLUSH
                if y > 0, rowsEqual(pixels, y * rowBytes, (y - 1) * rowBytes, count: rowBytes) {
                    checksum.append(unchangedChecksum, length: rowBytes + 1)
                    sink.feed(&unchanged, into: &stream, flush: flush)
                    continue
                }
                filtered.withUnsafeMutableBufferPointer { out in
                    filter(pixels, row: y, rowBytes: rowBytes, into: out)
                    checksum.update(UnsafeBufferPointer(out))
                }
                sink.feed(&filtered, into: &stream, flush: flush)
            }
        }
        if raster.height == 0 {
            var nothing: [UInt8] = []
            sink.feed(&nothing, into: &stream, flush: Z_FINISH)
        }
        guard sink.isComplete else { return [] }
        // CMF 0x78: deflate with a 32 KiB window; FLG 0x01: fastest level, check bits.
        var zlibStream = [UInt8](arrayLiteral: 0x78, 0x01)
        zlibStream.reserveCapacity(sink.output.count + 6)
        zlibStream += sink.output
        appendBigEndian(checksum.value, to: &zlibStream)
        return zlibStream
    }

    /// Sub for the first row (no row above to predict from), Up for the others.
    private static func filter(
        _ pixels: UnsafeBufferPointer<UInt8>, row y: Int, rowBytes: Int, into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let base = pixels.baseAddress, let target = out.baseAddress, rowBytes > 0 else { return }
        let current = base + y * rowBytes
        let data = target + 1
        if y == 0 {
            target[0] = 1
            for i in 0..<min(3, rowBytes) { data[i] = current[i] }
            for i in 3..<max(3, rowBytes) { data[i] = current[i] &- current[i - 3] }
            return
        }
        target[0] = 2
        let above = current - rowBytes
        for i in 0..<rowBytes { data[i] = current[i] &- above[i] }
    }

    /// Compares two rows eight bytes at a time.
    private static func rowsEqual(_ pixels: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, count: Int) -> Bool {
        let raw = UnsafeRawBufferPointer(pixels)
        var i = 0
        while i + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: a + i, as: UInt64.self)
                != raw.loadUnaligned(fromByteOffset: b + i, as: UInt64.self) {
                return false
            }
            i += 8
        }
        while i < count {
            if pixels[a + i] != pixels[b + i] { return false }
            i += 1
        }
        return true
    }

    /// Length, type, data and CRC; shared with the APNG writer.
    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeBytes = Array(type.utf8)
        png += typeBytes
        png += data
        appendBigEndian(Checksums.crc32(typeBytes, data), to: &png)
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func appendBigEndian(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    /// IHDR's data for an 8-bit RGB image: depth 8, RGB, deflate, adaptive filtering, no interlace.
    static func header(width: Int, height: Int) -> [UInt8] {
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        return header + [8, 2, 0, 0, 0]
    }
}
