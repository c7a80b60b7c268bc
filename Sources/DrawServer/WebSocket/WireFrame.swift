import NIOCore

/// A WebSocket frame exactly as the server sends it (RFC 6455 section 5.2: FIN set, no
/// mask, no extension bits): header and payload in one buffer.
///
/// Server frames are not masked, so a message is the same bytes for every recipient: it
/// is encoded once where it is made (a room's broadcast, a relayed drawing frame) and the
/// same buffer is handed to every connection, which writes it to its socket as it is.
package struct WireFrame: Sendable {
    package enum Kind: UInt8, Sendable {
        case text = 0x1
        case binary = 0x2
        case ping = 0x9
    }

    package let kind: Kind
    /// Header then payload.
    let bytes: ByteBuffer
    let headerLength: Int

    init(_ kind: Kind, payload: ByteBuffer) {
        var payload = payload
        self.init(kind, payloadLength: payload.readableBytes) { $0.writeBuffer(&payload) }
    }

    init(_ kind: Kind, payload: [UInt8]) {
        self.init(kind, payloadLength: payload.count) { $0.writeBytes(payload) }
    }

    /// Encodes one frame whose payload `write` appends.
    init(_ kind: Kind, payloadLength length: Int, write: (inout ByteBuffer) -> Void) {
        let header = Self.headerLength(payloadLength: length)
        var buffer = ByteBufferAllocator().buffer(capacity: header + length)
        buffer.writeInteger(0x80 | kind.rawValue)
        switch length {
        case ..<126:
            buffer.writeInteger(UInt8(length))
        case ...0xFFFF:
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
        write(&buffer)
        self.kind = kind
        self.bytes = buffer
        self.headerLength = header
    }

    static func headerLength(payloadLength: Int) -> Int {
        switch payloadLength {
        case ..<126: 2
        case ...0xFFFF: 4
        default: 10
        }
    }

    package var payloadLength: Int { bytes.readableBytes - headerLength }

    /// The payload, sharing the frame's storage.
    var payload: ByteBuffer {
        bytes.getSlice(at: bytes.readerIndex + headerLength, length: payloadLength) ?? ByteBuffer()
    }

    /// One binary frame carrying the payloads of `frames` back to back (merging drawing
    /// frames, which the protocol allows).
    static func merged(_ frames: ArraySlice<WireFrame>) -> WireFrame {
        let length = frames.reduce(0) { $0 + $1.payloadLength }
        return WireFrame(.binary, payloadLength: length) { buffer in
            for frame in frames {
                buffer.writeImmutableBuffer(frame.payload)
            }
        }
    }
}
