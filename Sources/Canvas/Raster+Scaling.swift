extension Raster {
    /// The upscale factors offered (protocol section 6, `?scale=N`).
    public static let scaleRange = 1...4

    /// Integer nearest-neighbour upscale; `factor` is clamped to `scaleRange`.
    public func scaled(by factor: Int) -> Raster {
        let factor = min(max(factor, Self.scaleRange.lowerBound), Self.scaleRange.upperBound)
        guard factor > 1, width > 0, height > 0 else { return self }
        let outWidth = width * factor
        let rowBytes = outWidth * 3
        var out = [UInt8](repeating: 0, count: rowBytes * height * factor)
        let width = width
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let first = y * factor * rowBytes
                    var index = first
                    for x in 0..<width {
                        let from = (y * width + x) * 3
                        for _ in 0..<factor {
                            target[index] = source[from]
                            target[index + 1] = source[from + 1]
                            target[index + 2] = source[from + 2]
                            index += 3
                        }
                    }
                    for copy in 1..<factor {
                        let start = first + copy * rowBytes
                        for offset in 0..<rowBytes {
                            target[start + offset] = target[first + offset]
                        }
                    }
                }
            }
        }
        return Raster(width: outWidth, height: height * factor, pixels: out)
    }

    /// Area-average downscale so the longer side is at most `maxSide` (at least 1); unchanged
    /// when it already fits.
    ///
    /// Each output pixel is the exact area-weighted mean of the source pixels it covers. In
    /// units of 1/(new size) of a source pixel every overlap is an integer, so the whole
    /// computation is integer and deterministic.
    public func fitted(maxSide: Int) -> Raster {
        let limit = max(1, maxSide)
        let longer = max(width, height)
        guard longer > limit else { return self }
        let outWidth = max(1, (width * limit + longer / 2) / longer)
        let outHeight = max(1, (height * limit + longer / 2) / longer)
        let columns = Self.areaWeights(from: width, to: outWidth)
        let rows = Self.areaWeights(from: height, to: outHeight)
        // Horizontal pass: sums weighted by column overlap (each output column totals `width`).
        var horizontal = [Int](repeating: 0, count: height * outWidth * 3)
        for y in 0..<height {
            for (outX, taps) in columns.enumerated() {
                var sum = (0, 0, 0)
                for tap in taps {
                    let index = (y * width + tap.source) * 3
                    sum.0 += tap.weight * Int(pixels[index])
                    sum.1 += tap.weight * Int(pixels[index + 1])
                    sum.2 += tap.weight * Int(pixels[index + 2])
                }
                let target = (y * outWidth + outX) * 3
                horizontal[target] = sum.0
                horizontal[target + 1] = sum.1
                horizontal[target + 2] = sum.2
            }
        }
        // Vertical pass, then one rounded division by the total weight `width * height`.
        let total = width * height
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        for (outY, taps) in rows.enumerated() {
            for offset in 0..<(outWidth * 3) {
                var sum = 0
                for tap in taps {
                    sum += tap.weight * horizontal[tap.source * outWidth * 3 + offset]
                }
                out[outY * outWidth * 3 + offset] = UInt8((sum + total / 2) / total)
            }
        }
        return Raster(width: outWidth, height: outHeight, pixels: out)
    }

    /// For each output index, the source indices it overlaps and by how much, measuring source
    /// pixels as `outCount` units and output pixels as `inCount` units.
    private static func areaWeights(from inCount: Int, to outCount: Int) -> [[(source: Int, weight: Int)]] {
        (0..<outCount).map { out in
            let start = out * inCount
            let end = start + inCount
            return (start / outCount...(end - 1) / outCount).map { source in
                let overlap = min(end, (source + 1) * outCount) - max(start, source * outCount)
                return (source: source, weight: overlap)
            }
        }
    }
}
