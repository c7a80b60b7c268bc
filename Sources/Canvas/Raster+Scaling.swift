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
        let columns = AreaWeights(from: width, to: outWidth)
        let rows = AreaWeights(from: height, to: outHeight)
        let width = width
        // Flat arrays read through buffer pointers: the same integer arithmetic, without
        // the per-tap retains that made the debug build (the test suite) slow.
        // Horizontal pass: sums weighted by column overlap (each output column totals `width`).
        var horizontal = [Int](repeating: 0, count: height * outWidth * 3)
        pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                columns.withTaps { first, taps, weights in
                    for y in 0..<height {
                        for outX in 0..<outWidth {
                            var sum = (0, 0, 0)
                            for tap in first[outX]..<first[outX + 1] {
                                let index = (y * width + taps[tap]) * 3
                                let weight = weights[tap]
                                sum.0 += weight * Int(source[index])
                                sum.1 += weight * Int(source[index + 1])
                                sum.2 += weight * Int(source[index + 2])
                            }
                            let at = (y * outWidth + outX) * 3
                            target[at] = sum.0
                            target[at + 1] = sum.1
                            target[at + 2] = sum.2
                        }
                    }
                }
            }
        }
        // Vertical pass, then one rounded division by the total weight `width * height`.
        let total = width * height
        let rowBytes = outWidth * 3
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        horizontal.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                rows.withTaps { first, taps, weights in
                    for outY in 0..<outHeight {
                        for offset in 0..<rowBytes {
                            var sum = 0
                            for tap in first[outY]..<first[outY + 1] {
                                sum += weights[tap] * source[taps[tap] * rowBytes + offset]
                            }
                            target[outY * rowBytes + offset] = UInt8((sum + total / 2) / total)
                        }
                    }
                }
            }
        }
        return Raster(width: outWidth, height: outHeight, pixels: out)
    }
}

/// For each output index, the source indices it overlaps and by how much, measuring source
/// pixels as `outCount` units and output pixels as `inCount` units. Output `i`'s taps are
/// `first[i]..<first[i + 1]`.
private struct AreaWeights {
    var first: [Int] = [0]
    var taps: [Int] = []
    var weights: [Int] = []

    init(from inCount: Int, to outCount: Int) {
        for out in 0..<outCount {
            let start = out * inCount
            let end = start + inCount
            for source in start / outCount...(end - 1) / outCount {
                taps.append(source)
                weights.append(min(end, (source + 1) * outCount) - max(start, source * outCount))
            }
            first.append(taps.count)
        }
    }

    func withTaps<R>(_ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>) -> R) -> R {
        first.withUnsafeBufferPointer { first in
            taps.withUnsafeBufferPointer { taps in
                weights.withUnsafeBufferPointer { weights in body(first, taps, weights) }
            }
        }
    }
}
