import CZlib
import Testing
@testable import Canvas

@Suite("PNG and PPM encoders")
struct EncoderTests {
    private func randomRaster(width: Int, height: Int, seed: UInt64) -> Raster {
        var rng = SplitMix64(seed: seed)
        var raster = Raster(size: CanvasSize(width: width, height: height))
        for y in 0..<height {
            // Some rows repeat the previous one, some are noise, some are flat.
            switch rng.int(0...2) {
            case 0 where y > 0:
                for x in 0..<width { raster.setPixel(x: x, y: y, to: raster.pixel(x: x, y: y - 1)) }
            case 1:
                for x in 0..<width {
                    raster.setPixel(x: x, y: y, to: RGB(r: UInt8(rng.int(0...255)), g: UInt8(rng.int(0...255)), b: UInt8(rng.int(0...255))))
                }
            default:
                break
            }
        }
        return raster
    }

    @Test(arguments: [(1, 1), (1, 7), (7, 1), (3, 2), (17, 5), (64, 64), (301, 13)])
    func pngDecodesBackToTheSamePixels(width: Int, height: Int) throws {
        let raster = randomRaster(width: width, height: height, seed: UInt64(width * 1000 + height))
        let decoded = try PNGTestDecoder.decode(PNGEncoder.encode(raster))
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.pixels == raster.pixels)
    }

    @Test func pngOfARealDrawingRoundTripsWithValidChunks() throws {
        let raster = Renderer.render(try SampleDrawing.make(seed: 2).drawing())
        let png = PNGEncoder.encode(raster)
        let chunks = try PNGTestDecoder.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        #expect(try PNGTestDecoder.decode(png).pixels == raster.pixels)
        // Line art compresses far below the raw 1.44 MB.
        #expect(png.count < raster.pixels.count / 5)
        let blank = PNGEncoder.encode(Raster(size: .standard))
        #expect(try PNGTestDecoder.decode(blank).pixels == Raster(size: .standard).pixels)
        #expect(blank.count < 4000)
    }

    @Test func checksumsMatchTheirStandardVectors() {
        #expect(Checksums.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(Checksums.crc32(Array("1234".utf8), Array("56789".utf8)) == 0xCBF4_3926)
        var adler = Checksums.Adler32()
        Array("Wikipedia".utf8).withUnsafeBufferPointer { adler.update($0) }
        #expect(adler.value == 0x11E6_0398)
    }

    @Test func anUnchangedRowsChecksumCombinesLikeSummingIt() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<50 {
            var combined = Checksums.Adler32()
            var summed = Checksums.Adler32()
            for _ in 0..<rng.int(1...6) {
                let row = [UInt8(rng.int(0...255))] + [UInt8](repeating: 0, count: rng.int(0...20000))
                var alone = Checksums.Adler32()
                row.withUnsafeBufferPointer { alone.update($0) }
                combined.append(alone, length: row.count)
                row.withUnsafeBufferPointer { summed.update($0) }
            }
            #expect(combined.value == summed.value)
        }
    }

    /// zlib's own inflate checks the stream's Adler-32 trailer.
    @Test func theImageDataInflatesWithZlibsChecks() throws {
        var raster = Raster(size: CanvasSize(width: 64, height: 48))
        for x in 0..<20 { raster.setPixel(x: x, y: 7, to: RGB(r: 200, g: 10, b: 10)) }
        let stream = PNGEncoder.compressedScanlines(raster)
        var inflated = [UInt8](repeating: 0, count: (64 * 3 + 1) * 48)
        var length = uLongf(inflated.count)
        let status = inflated.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        #expect(status == Z_OK)
        #expect(Int(length) == inflated.count)
    }

    @Test func ppmIsABinaryP6WithMaxval255() {
        var raster = Raster(size: CanvasSize(width: 2, height: 1))
        raster.setPixel(x: 1, y: 0, to: RGB(r: 1, g: 2, b: 3))
        #expect(PPMEncoder.encode(raster) == Array("P6\n2 1\n255\n".utf8) + [255, 255, 255, 1, 2, 3])
    }
}
