import CZlib

/// A minimal APNG reader for tests, independent of the encoder: checks the chunk order and
/// sequence numbers, decodes every frame through `PNGTestDecoder` and composes the frames
/// (dispose op none, blend op source are the only ones it accepts) onto a canvas.
enum APNGTestDecoder {
    struct FrameControl {
        var sequence: UInt32
        var width: Int
        var height: Int
        var x: Int
        var y: Int
        var delayNumerator: Int
        var delayDenominator: Int
        var dispose: UInt8
        var blend: UInt8
    }

    struct Animation {
        var width: Int
        var height: Int
        var declaredFrames: Int
        var plays: Int
        var controls: [FrameControl]
        /// The canvas after each frame, composed.
        var composed: [[UInt8]]

        var seconds: Double {
            controls.reduce(0) { $0 + Double($1.delayNumerator) / Double($1.delayDenominator == 0 ? 100 : $1.delayDenominator) }
        }
    }

    static func decode(_ png: [UInt8]) throws -> Animation {
        let chunks = try PNGTestDecoder.chunks(png)
        guard chunks.count >= 4, chunks[0].type == "IHDR", chunks[1].type == "acTL", chunks.last?.type == "IEND" else {
            throw PNGTestDecoder.Failure(description: "expected IHDR, acTL first and IEND last: \(chunks.map(\.type))")
        }
        let width = Int(PNGTestDecoder.readUInt32(chunks[0].data, 0))
        let height = Int(PNGTestDecoder.readUInt32(chunks[0].data, 4))
        let declared = Int(PNGTestDecoder.readUInt32(chunks[1].data, 0))
        let plays = Int(PNGTestDecoder.readUInt32(chunks[1].data, 4))
        var animation = Animation(width: width, height: height, declaredFrames: declared, plays: plays, controls: [], composed: [])
        var canvas = [UInt8](repeating: 0, count: width * height * 3)
        var expectedSequence: UInt32 = 0
        var index = 2
        while chunks[index].type != "IEND" {
            let control = chunks[index]
            guard control.type == "fcTL", control.data.count == 26 else {
                throw PNGTestDecoder.Failure(description: "expected fcTL at chunk \(index), got \(control.type)")
            }
            let d = control.data
            let frame = FrameControl(
                sequence: PNGTestDecoder.readUInt32(d, 0), width: Int(PNGTestDecoder.readUInt32(d, 4)),
                height: Int(PNGTestDecoder.readUInt32(d, 8)), x: Int(PNGTestDecoder.readUInt32(d, 12)),
                y: Int(PNGTestDecoder.readUInt32(d, 16)), delayNumerator: Int(d[20]) << 8 | Int(d[21]),
                delayDenominator: Int(d[22]) << 8 | Int(d[23]), dispose: d[24], blend: d[25])
            guard frame.sequence == expectedSequence else {
                throw PNGTestDecoder.Failure(description: "fcTL sequence \(frame.sequence), expected \(expectedSequence)")
            }
            expectedSequence += 1
            guard frame.width > 0, frame.height > 0, frame.x + frame.width <= width, frame.y + frame.height <= height,
                  frame.dispose == 0, frame.blend == 0 else {
                throw PNGTestDecoder.Failure(description: "bad frame region or ops: \(frame)")
            }
            if animation.controls.isEmpty, frame.x != 0 || frame.y != 0 || frame.width != width || frame.height != height {
                throw PNGTestDecoder.Failure(description: "the first frame must cover the canvas")
            }
            index += 1
            var data: [UInt8] = []
            let dataType = animation.controls.isEmpty ? "IDAT" : "fdAT"
            while chunks[index].type == dataType {
                if dataType == "fdAT" {
                    let sequence = PNGTestDecoder.readUInt32(chunks[index].data, 0)
                    guard sequence == expectedSequence else {
                        throw PNGTestDecoder.Failure(description: "fdAT sequence \(sequence), expected \(expectedSequence)")
                    }
                    expectedSequence += 1
                    data += chunks[index].data[4...]
                } else {
                    data += chunks[index].data
                }
                index += 1
            }
            guard !data.isEmpty else { throw PNGTestDecoder.Failure(description: "frame without \(dataType)") }
            let pixels = try PNGTestDecoder.decode(stillPNG(width: frame.width, height: frame.height, idat: data)).pixels
            let rowBytes = frame.width * 3
            for row in 0..<frame.height {
                let target: Int = ((frame.y + row) * width + frame.x) * 3
                let source: Int = row * rowBytes
                canvas.replaceSubrange(target..<(target + rowBytes), with: pixels[source..<(source + rowBytes)])
            }
            animation.controls.append(frame)
            animation.composed.append(canvas)
        }
        guard animation.controls.count == declared else {
            throw PNGTestDecoder.Failure(description: "acTL declares \(declared) frames, found \(animation.controls.count)")
        }
        return animation
    }

    /// A still PNG around one frame's image data, for `PNGTestDecoder.decode`.
    private static func stillPNG(width: Int, height: Int, idat: [UInt8]) -> [UInt8] {
        var header: [UInt8] = []
        for value in [UInt32(width), UInt32(height)] {
            header += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        header += [8, 2, 0, 0, 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in [("IHDR", header), ("IDAT", idat), ("IEND", [])] {
            let count = UInt32(data.count)
            file += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            let typeAndData = Array(type.utf8) + data
            file += typeAndData
            let crc = typeAndData.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            file += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        return file
    }
}
