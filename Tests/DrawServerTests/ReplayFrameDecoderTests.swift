import NIOCore
import NIOWebSocket
import Testing
import WebSocketFrames
@testable import DrawServer
@testable import LoadTester

/// The replay client's frame decoder, on bytes as a server may send them.
@Suite("Replay: frame decoder")
struct ReplayFrameDecoderTests {
    /// An unmasked frame as a server writes it.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126: bytes.append(UInt8(payload.count))
        case ..<65_536: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        return bytes + payload
    }

    /// Feeds `bytes` in pieces of `step` bytes; returns every frame as (fin, opcode, payload).
    static func decode(_ bytes: [UInt8], step: Int, maxFrameSize: Int = 1 << 20) throws -> [(Bool, UInt8, [UInt8])] {
        var decoder = ReplayFrameDecoder(maxFrameSize: maxFrameSize)
        var frames: [(Bool, UInt8, [UInt8])] = []
        var offset = 0
        while offset < bytes.count {
            decoder.append(ByteBuffer(bytes: bytes[offset..<min(offset + step, bytes.count)]))
            offset += step
            while let frame = try decoder.next() {
                frames.append((frame.fin, UInt8(webSocketOpcode: frame.opcode), Array(buffer: frame.payload)))
            }
        }
        return frames
    }

    @Test func framesOfEveryLengthEncodingSurviveAnySplit() throws {
        let short = (0..<125).map { UInt8($0 & 0xFF) }
        let medium = (0..<300).map { UInt8($0 & 0xFF) }
        let long = (0..<70_000).map { UInt8($0 % 251) }
        let stream = Self.frame(0x2, short) + Self.frame(0x1, Array("hi".utf8), fin: false) + Self.frame(0x0, [])
            + Self.frame(0x9, [7]) + Self.frame(0x2, medium) + Self.frame(0x2, long) + Self.frame(0x2, [])
        for step in [1, 2, 3, 7, 64, 1_000, stream.count] {
            let frames = try Self.decode(stream, step: step)
            #expect(frames.map(\.1) == [0x2, 0x1, 0x0, 0x9, 0x2, 0x2, 0x2], "split every \(step) bytes")
            #expect(frames.map(\.0) == [true, false, true, true, true, true, true])
            #expect(frames.map(\.2) == [short, Array("hi".utf8), [], [7], medium, long, []])
        }
    }

    @Test func aFrameWaitsForItsLastByte() throws {
        var decoder = ReplayFrameDecoder(maxFrameSize: 1 << 20)
        let bytes = Self.frame(0x2, [1, 2, 3])
        decoder.append(ByteBuffer(bytes: bytes.dropLast()))
        #expect(try decoder.next() == nil)
        decoder.append(ByteBuffer(bytes: bytes.suffix(1)))
        #expect(try decoder.next().map { Array(buffer: $0.payload) } == [1, 2, 3])
        #expect(try decoder.next() == nil)
    }

    @Test(arguments: [
        ([0xC2, 0x00], "reserved bits"),
        ([0x83, 0x00], "unknown opcode"),
        ([0x82, 0x81, 1, 2, 3, 4, 0], "masked"),
        ([0x09, 0x00], "fragmented or oversized control"),
        ([0x89, 126, 0, 126] + [UInt8](repeating: 0, count: 126), "fragmented or oversized control"),
        ([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0], "over 1024 bytes"),
        ([0x82, 126, 0x04, 0x01], "over 1024 bytes"),
    ] as [([UInt8], String)])
    func bytesNoServerMaySendAreAProtocolViolation(bytes: [UInt8], reason: String) throws {
        do {
            _ = try Self.decode(bytes, step: bytes.count, maxFrameSize: 1_024)
            Issue.record("accepted \(bytes.prefix(4))")
        } catch let error as ReplayError {
            #expect("\(error)".contains(reason))
        }
    }
}
