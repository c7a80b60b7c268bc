extension Raster {
    /// Blends `color` into the part of `rect` the mask covers, once per stroke.
    ///
    /// With `base`, pixels are recomputed from it rather than from the current pixels, so a
    /// live stroke whose coverage grows as points arrive ends up with exactly the bytes a
    /// one-shot render gives. Integer maths: `(under * (255 - a) + color * a + 127) / 255`.
    mutating func composite(_ mask: CoverageMask, in rect: PixelRect, color: RGB, base: Raster? = nil) {
        guard mask.width == width, mask.height == height, base.map({ $0.pixels.count == pixels.count }) ?? true
        else { return }
        let width = width
        let paint = (UInt32(color.r), UInt32(color.g), UInt32(color.b))
        let emptyBase: [UInt8] = []
        (base?.pixels ?? emptyBase).withUnsafeBufferPointer { basePixels in
            mask.alpha.withUnsafeBufferPointer { alpha in
                pixels.withUnsafeMutableBufferPointer { target in
                    // Without a base the pixels blend over themselves.
                    let under = basePixels.isEmpty ? UnsafeBufferPointer(target) : basePixels
                    for y in rect.minY...rect.maxY {
                        let row = y * width
                        var x = max(rect.minX, mask.rowStart[y])
                        let end = min(rect.maxX, mask.rowEnd[y])
                        while x <= end {
                            // Skip uncovered pixels eight at a time.
                            if x + 8 <= end + 1,
                               UnsafeRawBufferPointer(alpha).loadUnaligned(fromByteOffset: row + x, as: UInt64.self) == 0 {
                                x += 8
                                continue
                            }
                            let coverage = alpha[row + x]
                            let index = (row + x) * 3
                            x += 1
                            if coverage == 0 { continue }
                            if coverage == 255 {
                                target[index] = color.r
                                target[index + 1] = color.g
                                target[index + 2] = color.b
                                continue
                            }
                            let a = UInt32(coverage)
                            let keep = 255 - a
                            target[index] = UInt8((UInt32(under[index]) * keep + paint.0 * a + 127) / 255)
                            target[index + 1] = UInt8((UInt32(under[index + 1]) * keep + paint.1 * a + 127) / 255)
                            target[index + 2] = UInt8((UInt32(under[index + 2]) * keep + paint.2 * a + 127) / 255)
                        }
                    }
                }
            }
        }
    }
}
