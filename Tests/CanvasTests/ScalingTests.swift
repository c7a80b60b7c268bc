import Testing
@testable import Canvas

@Suite("Raster scaling")
struct ScalingTests {
    private func raster(_ width: Int, _ height: Int, _ values: [UInt8]) -> Raster {
        Raster(width: width, height: height, pixels: values.flatMap { [$0, $0, $0] })
    }

    @Test func integerUpscaleRepeatsPixels() {
        let source = raster(2, 2, [0, 50, 100, 150])
        let scaled = source.scaled(by: 3)
        #expect(scaled.width == 6 && scaled.height == 6)
        for y in 0..<6 {
            for x in 0..<6 {
                #expect(scaled.pixel(x: x, y: y) == source.pixel(x: x / 3, y: y / 3))
            }
        }
        #expect(source.scaled(by: 1) == source)
        #expect(source.scaled(by: 0) == source)
        #expect(source.scaled(by: 9).width == 8)
        #expect(Raster(size: .standard).scaled(by: 4).pixels.count == 3200 * 2400 * 3)
    }

    @Test func downscaleAveragesAreas() {
        // 4x2 -> max side 2 -> 2x1: each output pixel is the mean of a 2x2 block.
        let source = raster(4, 2, [0, 100, 200, 255, 40, 60, 0, 1])
        let fitted = source.fitted(maxSide: 2)
        #expect(fitted.width == 2 && fitted.height == 1)
        #expect(fitted.pixel(x: 0, y: 0).r == 50)   // (0 + 100 + 40 + 60) / 4
        #expect(fitted.pixel(x: 1, y: 0).r == 114)  // (200 + 255 + 0 + 1) / 4 = 114
        // 3x1 -> 2x1: fractional overlaps (2/3 and 1/3 of the middle pixel).
        let thirds = raster(3, 1, [0, 90, 180]).fitted(maxSide: 2)
        #expect(thirds.pixel(x: 0, y: 0).r == 30 && thirds.pixel(x: 1, y: 0).r == 150)
    }

    @Test func downscaleKeepsTheAspectAndUniformColour() throws {
        var canvas = Raster(size: .standard)
        canvas.floodFill(at: Point(x: 0, y: 0), with: RGB(r: 10, g: 200, b: 30))
        let small = canvas.fitted(maxSide: 200)
        #expect(small.width == 200 && small.height == 150)
        #expect(small.pixel(x: 77, y: 33) == RGB(r: 10, g: 200, b: 30))
        #expect(canvas.fitted(maxSide: 800) == canvas)
        #expect(canvas.fitted(maxSide: 0).width == 1)
        let drawing = Renderer.render(try SampleDrawing.make(seed: 1).drawing())
        #expect(drawing.fitted(maxSide: 333).width == 333)
    }
}
