/// Assembles an animated PNG (APNG 1.0): IHDR, acTL, then per frame an fcTL and its image
/// data, then IEND.
///
/// The first frame's data is the IDAT, so it is also the default image that viewers without
/// APNG support show; later frames use fdAT. fcTL and fdAT share one sequence counter from 0,
/// as the specification requires.
struct APNGWriter {
    /// One frame as stored: a zlib stream of its scanlines and where it goes on the canvas.
    struct Frame {
        var width: Int
        var height: Int
        var x: Int
        var y: Int
        /// In ticks of `1 / fps` seconds.
        var delayTicks: Int
        /// `PNGEncoder.compressedScanlines` of the frame's rectangle.
        var data: [UInt8]
    }

    /// fcTL dispose op: leave the frame on the canvas for the next one to draw over.
    static let disposeNone: UInt8 = 0
    /// fcTL blend op: the frame's pixels replace the rectangle (no alpha here anyway).
    static let blendSource: UInt8 = 0
    /// Bytes of an fcTL or fdAT beyond the image data, for size accounting.
    static let frameOverhead = 12 + 26 + 12 + 4

    /// The complete file; `plays` 0 loops forever.
    static func write(width: Int, height: Int, frames: [Frame], fps: Int, plays: Int) -> [UInt8] {
        var png = PNGEncoder.signature
        PNGEncoder.appendChunk("IHDR", PNGEncoder.header(width: width, height: height), to: &png)
        var control: [UInt8] = []
        PNGEncoder.appendBigEndian(UInt32(frames.count), to: &control)
        PNGEncoder.appendBigEndian(UInt32(plays), to: &control)
        PNGEncoder.appendChunk("acTL", control, to: &png)
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            PNGEncoder.appendChunk("fcTL", frameControl(frame, sequence: sequence, fps: fps), to: &png)
            sequence += 1
            if index == 0 {
                PNGEncoder.appendChunk("IDAT", frame.data, to: &png)
            } else {
                var data: [UInt8] = []
                data.reserveCapacity(frame.data.count + 4)
                PNGEncoder.appendBigEndian(sequence, to: &data)
                data += frame.data
                PNGEncoder.appendChunk("fdAT", data, to: &png)
                sequence += 1
            }
        }
        PNGEncoder.appendChunk("IEND", [], to: &png)
        return png
    }

    private static func frameControl(_ frame: Frame, sequence: UInt32, fps: Int) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(26)
        PNGEncoder.appendBigEndian(sequence, to: &data)
        PNGEncoder.appendBigEndian(UInt32(frame.width), to: &data)
        PNGEncoder.appendBigEndian(UInt32(frame.height), to: &data)
        PNGEncoder.appendBigEndian(UInt32(frame.x), to: &data)
        PNGEncoder.appendBigEndian(UInt32(frame.y), to: &data)
        PNGEncoder.appendBigEndian(UInt16(clamping: frame.delayTicks), to: &data)
        PNGEncoder.appendBigEndian(UInt16(clamping: fps), to: &data)
        data += [disposeNone, blendSource]
        return data
    }
}
