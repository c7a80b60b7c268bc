/// RGB 8-bit pixels, row-major, white background: the rendered form of a drawing.
public struct Raster: Sendable, Equatable {
    /// Pixels across; fixed, because `pixels` is laid out by it.
    public let width: Int
    /// Pixels down; fixed, because `pixels` is laid out by it.
    public let height: Int
    /// `width * height * 3` bytes, R G B per pixel, top row first.
    ///
    /// Assigning an array of another length truncates it or pads it with white: the
    /// drawing code walks these bytes with unchecked pointers and relies on the length.
    public var pixels: [UInt8] {
        didSet {
            if pixels.count != width * height * 3 {
                pixels = Self.fitting(pixels, count: width * height * 3)
            }
        }
    }

    /// A white raster; negative sides count as zero.
    public init(size: CanvasSize) {
        self.init(width: size.width, height: size.height, pixels: nil)
    }

    /// A raster from existing pixels (`nil`: white), truncated or padded with white to
    /// `width * height * 3` bytes; negative sides count as zero.
    public init(width: Int, height: Int, pixels: [UInt8]?) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = Self.fitting(pixels ?? [], count: self.width * self.height * 3)
    }

    /// `bytes` cut or padded with white (255) to exactly `count`.
    private static func fitting(_ bytes: [UInt8], count: Int) -> [UInt8] {
        if bytes.count == count { return bytes }
        if bytes.count > count { return Array(bytes[0..<count]) }
        var padded = [UInt8](repeating: 255, count: count)
        padded.replaceSubrange(0..<bytes.count, with: bytes)
        return padded
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
