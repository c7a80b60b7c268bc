/// RGB 8-bit pixels, row-major, white background: the rendered form of a drawing.
public struct Raster: Sendable, Equatable {
    /// Pixels across; fixed, because `pixels` is laid out by it.
    public let width: Int
    /// Pixels down; fixed, because `pixels` is laid out by it.
    public let height: Int
    /// `width * height * 3` bytes, R G B per pixel, top row first.
    public var pixels: [UInt8]

    /// A white raster; negative sides count as zero.
    public init(size: CanvasSize) {
        self.init(width: size.width, height: size.height, pixels: nil)
    }

    /// A raster from existing pixels; pixels of the wrong length are replaced by white.
    public init(width: Int, height: Int, pixels: [UInt8]?) {
        self.width = max(0, width)
        self.height = max(0, height)
        let count = self.width * self.height * 3
        if let pixels, pixels.count == count {
            self.pixels = pixels
        } else {
            self.pixels = [UInt8](repeating: 255, count: count)
        }
    }

    /// The raster's dimensions as a canvas size (after scaling, no longer the drawing's).
    public var size: CanvasSize { CanvasSize(width: width, height: height) }

    /// The colour at a pixel; outside the raster it is the white background.
    public func pixel(x: Int, y: Int) -> RGB {
        guard x >= 0, y >= 0, x < width, y < height else { return .white }
        let index = (y * width + x) * 3
        return RGB(r: pixels[index], g: pixels[index + 1], b: pixels[index + 2])
    }

    /// Sets one pixel; outside the raster it does nothing.
    public mutating func setPixel(x: Int, y: Int, to color: RGB) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = (y * width + x) * 3
        pixels[index] = color.r
        pixels[index + 1] = color.g
        pixels[index + 2] = color.b
    }

    /// Back to white, as CLEAR does, without reallocating.
    public mutating func clear() {
        pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 255) }
    }
}
