import Testing
@testable import Canvas

@Suite("Frame codec robustness")
struct FrameCodecFuzzTests {
    let size = CanvasSize(width: 64, height: 48)

    /// Random bytes biased towards opcodes and small varints so that many inputs get deep
    /// into the decoder instead of failing at the first byte.
    private func randomFrame(_ rng: inout SplitMix64) -> [UInt8] {
        let length = rng.int(0...48)
        return (0..<length).map { _ in
            switch rng.int(0...9) {
            case 0...3: UInt8(rng.int(0...7))
            case 4...5: UInt8(rng.int(0...20))
            case 6: 0x80 | UInt8(rng.int(0...127))
            default: UInt8(truncatingIfNeeded: rng.next())
            }
        }
    }

    /// A valid frame with a few bytes overwritten, inserted or cut off.
    private func mutatedFrame(_ rng: inout SplitMix64, _ generator: inout OperationGenerator) -> [UInt8] {
        var bytes = frame(generator.operations(count: rng.int(1...4)))
        for _ in 0..<rng.int(0...2) where !bytes.isEmpty {
            let index = rng.int(0...(bytes.count - 1))
            switch rng.int(0...2) {
            case 0: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
            case 1: bytes.insert(UInt8(rng.int(0...7)), at: index)
            default: bytes.removeSubrange(index...)
            }
        }
        return bytes
    }

    @Test func randomInputsNeverCrashAndDecodeAgreesWithValidate() throws {
        var rng = SplitMix64(seed: 0xF00D)
        var generator = OperationGenerator(seed: 0xBEEF, size: size)
        var accepted = 0
        var errors = Set<String>()
        for iteration in 0..<120_000 {
            let bytes = iteration % 3 == 0 ? mutatedFrame(&rng, &generator) : randomFrame(&rng)
            var start = StrokeCursor()
            if iteration % 2 == 0 {
                start.isOpen = true
                start.last = Point(x: Int32(rng.int(-64...127)), y: Int32(rng.int(-48...95)))
            }
            var decodeCursor = start
            var validateCursor = start
            let decoded = Result { () throws(FrameError) in try FrameCodec.decode(bytes, size: size, cursor: &decodeCursor) }
            let validated = Result { () throws(FrameError) in try FrameCodec.validate(bytes, size: size, cursor: &validateCursor) }
            switch (decoded, validated) {
            case let (.success(ops), .success(summary)):
                accepted += 1
                #expect(decodeCursor == validateCursor)
                #expect(summary.operations == ops.count)
                // A valid frame re-encodes to bytes that decode to the same operations.
                var encodeCursor = start
                let reencoded = FrameCodec.encode(ops, cursor: &encodeCursor)
                var again = start
                #expect(try FrameCodec.decode(reencoded, size: size, cursor: &again) == ops)
                #expect(again == decodeCursor)
                // And a Drawing accepts it too, leaving the same cursor.
                if !start.isOpen {
                    var drawing = Drawing(size: size)
                    #expect(try drawing.apply(frame: bytes) == summary)
                    #expect(drawing.cursor == decodeCursor)
                }
            case let (.failure(decodeError), .failure(validateError)):
                #expect(decodeError == validateError)
                #expect(decodeCursor == start && validateCursor == start)
                errors.insert(Mirror(reflecting: decodeError).children.first?.label ?? "\(decodeError)")
            default:
                Issue.record("decode and validate disagree on \(bytes)")
            }
        }
        // The generator must actually reach both valid frames and every kind of rejection.
        #expect(accepted > 10000)
        #expect(errors.count == 11, "\(errors)")
    }

    @Test func everyTruncationOfValidFramesIsRejectedAsTruncated() throws {
        var frames = SampleDrawing.make(seed: 3).frames.prefix(200).map(\.bytes)
        frames.append(frame([
            .begin(tool: .pen, color: RGB(r: 1, g: 2, b: 3), width: 64, at: Point(x: -800, y: 1199)),
            .points([Point(x: 1599, y: -600), Point(x: 0, y: 0), Point(x: 70000 / 100, y: 3)]),
            .fill(color: .white, at: Point(x: 799, y: 599)),
            .undo, .clear,
            .begin(tool: .eraser, color: .black, width: 1, at: Point(x: 0, y: 0)),
            .end,
        ]))
        var checked = 0
        var cursor = StrokeCursor()
        for bytes in frames {
            // Operation boundaries, found by re-encoding the decoded operations one at a time.
            let start = cursor
            let ops = try FrameCodec.decode(bytes, size: .standard, cursor: &cursor)
            var boundaries: Set<Int> = []
            var encoder = start
            var offset = 0
            var opStarts: [Int] = []
            for op in ops {
                opStarts.append(offset)
                offset += FrameCodec.encode([op], cursor: &encoder).count
                boundaries.insert(offset)
            }
            #expect(offset == bytes.count)
            for length in 0..<bytes.count {
                var probe = start
                let prefix = Array(bytes[0..<length])
                do {
                    _ = try FrameCodec.validate(prefix, size: .standard, cursor: &probe)
                    #expect(boundaries.contains(length), "prefix \(length) of \(bytes) accepted")
                } catch {
                    #expect(probe == start)
                    if length == 0 {
                        #expect(error == .empty)
                    } else {
                        let cut = opStarts.last { $0 < length } ?? 0
                        #expect(!boundaries.contains(length))
                        #expect(error == .truncated(offset: cut))
                    }
                }
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
