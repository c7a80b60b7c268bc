/// Binary PPM (P6, maxval 255): a header and the raw pixels, for tools that want no decoder.
public enum PPMEncoder {
    /// The complete file: `P6\n<w> <h>\n255\n` then the pixels as stored.
    public static func encode(_ raster: Raster) -> [UInt8] {
        var bytes = Array("P6\n\(raster.width) \(raster.height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + raster.pixels.count)
        bytes.append(contentsOf: raster.pixels)
        return bytes
    }
}
