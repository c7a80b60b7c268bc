import Testing
@testable import Canvas

@Suite("Flood fill")
struct FloodFillTests {
    @Test func fillsAWholeBlankStandardCanvas() {
        var raster = Raster(size: .standard)
        let red = RGB(r: 220, g: 10, b: 10)
        raster.floodFill(at: Point(x: 400, y: 300), with: red)
        #expect(stride(from: 0, to: raster.pixels.count, by: 3).allSatisfy {
            raster.pixels[$0] == 220 && raster.pixels[$0 + 1] == 10 && raster.pixels[$0 + 2] == 10
        })
        // Filling with the colour already there, or off the raster, changes nothing.
        let before = raster
        raster.floodFill(at: Point(x: 0, y: 0), with: red)
        raster.floodFill(at: Point(x: 800, y: 0), with: .black)
        raster.floodFill(at: Point(x: -1, y: 5), with: .black)
        #expect(raster == before)
    }

    @Test func staysInsideAClosedStrokeAndMatchesExactColourOnly() {
        let size = CanvasSize(width: 120, height: 100)
        let ring: [Point] = [Point(x: 20, y: 20), Point(x: 100, y: 20), Point(x: 100, y: 80), Point(x: 20, y: 80), Point(x: 20, y: 20)]
        let yellow = RGB(r: 250, g: 220, b: 0)
        let raster = Renderer.render([.begin(tool: .pen, color: .black, width: 4, at: ring[0]), .points(Array(ring.dropFirst())), .end,
                                      .fill(color: yellow, at: Point(x: 60, y: 50))], size: size)
        #expect(raster.pixel(x: 60, y: 50) == yellow)
        #expect(raster.pixel(x: 25, y: 25) == yellow)
        #expect(raster.pixel(x: 10, y: 10) == .white)
        #expect(raster.pixel(x: 110, y: 90) == .white)
        // A near-white pixel is a different colour: not filled.
        var speck = Raster(size: size)
        speck.setPixel(x: 5, y: 5, to: RGB(r: 254, g: 255, b: 255))
        speck.floodFill(at: Point(x: 50, y: 50), with: .black)
        #expect(speck.pixel(x: 5, y: 5) == RGB(r: 254, g: 255, b: 255))
        #expect(speck.pixel(x: 6, y: 5) == .black)
    }

    @Test func fourConnectedDoesNotLeakThroughDiagonals() {
        var raster = Raster(size: CanvasSize(width: 20, height: 20))
        for i in 0..<20 { raster.setPixel(x: i, y: i, to: .black) }
        raster.floodFill(at: Point(x: 15, y: 2), with: RGB(r: 0, g: 200, b: 0))
        #expect(raster.pixel(x: 19, y: 0) == RGB(r: 0, g: 200, b: 0))
        #expect(raster.pixel(x: 0, y: 1) == .white)
        #expect(raster.pixel(x: 5, y: 6) == .white)
    }

    @Test func matchesABreadthFirstReferenceOnRandomRasters() {
        var rng = SplitMix64(seed: 1234)
        let colours = [RGB.white, RGB.black, RGB(r: 9, g: 9, b: 9)]
        for _ in 0..<300 {
            let width = rng.int(1...30), height = rng.int(1...20)
            var raster = Raster(size: CanvasSize(width: width, height: height))
            for y in 0..<height {
                for x in 0..<width where rng.int(0...2) > 0 {
                    raster.setPixel(x: x, y: y, to: colours[rng.int(0...2)])
                }
            }
            let seed = Point(x: Int32(rng.int(0...(width - 1))), y: Int32(rng.int(0...(height - 1))))
            let paint = colours[rng.int(0...2)]
            var expected = raster
            let target = raster.pixel(x: Int(seed.x), y: Int(seed.y))
            if target != paint {
                var queue = [(Int(seed.x), Int(seed.y))]
                expected.setPixel(x: Int(seed.x), y: Int(seed.y), to: paint)
                while let (x, y) = queue.popLast() {
                    for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                    where nx >= 0 && ny >= 0 && nx < width && ny < height && expected.pixel(x: nx, y: ny) == target {
                        expected.setPixel(x: nx, y: ny, to: paint)
                        queue.append((nx, ny))
                    }
                }
            }
            raster.floodFill(at: seed, with: paint)
            #expect(raster == expected)
        }
    }
}
