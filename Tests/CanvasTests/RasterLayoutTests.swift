import Testing
@testable import Canvas

@Suite("Raster layout")
struct RasterLayoutTests {
    @Test func pixelsKeepTheirLengthWhateverIsAssigned() {
        var raster = Raster(size: CanvasSize(width: 4, height: 3))
        raster.pixels = [1, 2, 3]
        #expect(raster.pixels.count == 36)
        #expect(raster.pixel(x: 0, y: 0) == RGB(r: 1, g: 2, b: 3))
        #expect(raster.pixel(x: 3, y: 2) == .white)
        raster.pixels = [UInt8](repeating: 7, count: 100)
        #expect(raster.pixels.count == 36)
        // Everything that walks the bytes with pointers still works.
        raster.floodFill(at: Point(x: 1, y: 1), with: .black)
        #expect(raster.pixel(x: 3, y: 2) == .black)
        #expect(raster.scaled(by: 2).pixels.count == 144)
        #expect(Raster(width: 2, height: 2, pixels: [9, 9, 9]).pixel(x: 1, y: 1) == .white)
        #expect(Raster(width: -5, height: 2, pixels: nil).pixels.isEmpty)
    }
}
