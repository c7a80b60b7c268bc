// Only for `memcmp`: the platform's C library, named per platform so that Canvas builds
// for Apple platforms as well as Linux.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Raster {
    /// The smallest rectangle holding every pixel that differs from `other` (same size), or
    /// `nil` when none does.
    ///
    /// Rows are compared whole from the top and from the bottom; between those, each row is
    /// scanned only from the left up to the leftmost difference found so far and from the
    /// right down to the rightmost, so the cost follows the unchanged area, not the canvas.
    func changedRect(from other: Raster) -> PixelRect? {
        guard other.width == width, other.height == height, width > 0, height > 0 else { return nil }
        let rowBytes = width * 3
        let (width, height) = (width, height)
        return pixels.withUnsafeBufferPointer { new -> PixelRect? in
            other.pixels.withUnsafeBufferPointer { old -> PixelRect? in
                guard let newBase = new.baseAddress, let oldBase = old.baseAddress else { return nil }
                func rowDiffers(_ y: Int) -> Bool {
                    memcmp(newBase + y * rowBytes, oldBase + y * rowBytes, rowBytes) != 0
                }
                guard let top = (0..<height).first(where: rowDiffers) else { return nil }
                var bottom = height - 1
                while bottom > top, !rowDiffers(bottom) { bottom -= 1 }
                var minX = width
                var maxX = -1
                for y in top...bottom {
                    let row = y * rowBytes
                    var x = 0
                    while x < minX {
                        let i = row + x * 3
                        if new[i] != old[i] || new[i + 1] != old[i + 1] || new[i + 2] != old[i + 2] {
                            minX = x
                            break
                        }
                        x += 1
                    }
                    x = width - 1
                    while x > maxX {
                        let i = row + x * 3
                        if new[i] != old[i] || new[i + 1] != old[i + 1] || new[i + 2] != old[i + 2] {
                            maxX = x
                            break
                        }
                        x -= 1
                    }
                }
                return PixelRect(minX: minX, minY: top, maxX: maxX, maxY: bottom)
            }
        }
    }

    /// A new raster of the pixels inside `rect` (which must lie inside this one).
    func cropped(to rect: PixelRect) -> Raster {
        let outWidth = rect.maxX - rect.minX + 1
        let outHeight = rect.maxY - rect.minY + 1
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        let rowBytes = outWidth * 3
        let width = width
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for y in 0..<outHeight {
                    (to + y * rowBytes).update(from: from + ((rect.minY + y) * width + rect.minX) * 3, count: rowBytes)
                }
            }
        }
        return Raster(width: outWidth, height: outHeight, pixels: out)
    }

    /// Copies the pixels inside `rect` from `source` (same size), leaving the rest alone.
    mutating func copy(_ rect: PixelRect, from source: Raster) {
        guard source.width == width, source.height == height else { return }
        let rowBytes = (rect.maxX - rect.minX + 1) * 3
        let width = width
        source.pixels.withUnsafeBufferPointer { from in
            pixels.withUnsafeMutableBufferPointer { to in
                guard let from = from.baseAddress, let to = to.baseAddress else { return }
                for y in rect.minY...rect.maxY {
                    let offset = (y * width + rect.minX) * 3
                    (to + offset).update(from: from + offset, count: rowBytes)
                }
            }
        }
    }
}
