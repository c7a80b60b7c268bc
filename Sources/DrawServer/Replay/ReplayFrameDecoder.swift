import NIOCore
import NIOWebSocket

/// Splits what a server sends into WebSocket frames, for the replay client.
///
/// The load generator reads every delivery of a run on one core, so its frame decoding is
/// on the measured path: this parses frames straight out of the buffers the socket read
/// (payloads are slices of them, nothing is copied unless a frame spans two reads), where
/// NIO's `ByteToMessageHandler` and `WebSocketFrameDecoder` cost about 15 % of the client's
/// CPU. No extension is negotiated, so reserved bits are an error, and a server never masks.
struct ReplayFrameDecoder {
    struct Frame {
        var fin: Bool
        var opcode: WebSocketOpcode
        var payload: ByteBuffer
    }

    /// The largest payload accepted in one frame.
    let maxFrameSize: Int
    /// Bytes read but not yet returned as frames; nil when there are none, so an idle
    /// connection holds no read buffer.
    private var pending: ByteBuffer?

    init(maxFrameSize: Int) {
        self.maxFrameSize = maxFrameSize
    }

    /// Adds bytes read from the socket.
    mutating func append(_ bytes: ByteBuffer) {
        guard var buffered = pending else {
            pending = bytes
            return
        }
        pending = nil  // so the write below does not copy the storage for a second owner
        var bytes = bytes
        buffered.writeBuffer(&bytes)
        pending = buffered
    }

    /// The next whole frame, or nil until more bytes arrive. Throws a
    /// `ReplayError.protocolViolation` for bytes that are not a frame a server may send.
    mutating func next() throws -> Frame? {
        guard var buffer = pending, buffer.readableBytes >= 2,
              let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
              let second = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self)
        else { return nil }
        guard first & 0x70 == 0 else { throw ReplayError.protocolViolation("reserved bits set without an extension") }
        // NIO represents every 4-bit value; RFC 6455 defines only these.
        let defined: Bool = switch first & 0x0F { case 0x0, 0x1, 0x2, 0x8, 0x9, 0xA: true; default: false }
        guard defined, let opcode = WebSocketOpcode(encodedWebSocketOpcode: first & 0x0F) else {
            throw ReplayError.protocolViolation("unknown opcode \(first & 0x0F)")
        }
        guard second & 0x80 == 0 else { throw ReplayError.protocolViolation("a masked frame from the server") }
        var headerLength = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard let extended = buffer.getInteger(at: buffer.readerIndex + 2, as: UInt16.self) else { return nil }
            headerLength = 4
            length = Int(extended)
        } else if length == 127 {
            guard let extended = buffer.getInteger(at: buffer.readerIndex + 2, as: UInt64.self) else { return nil }
            headerLength = 10
            guard extended <= UInt64(maxFrameSize) else { throw ReplayError.protocolViolation("a frame over \(maxFrameSize) bytes") }
            length = Int(extended)
        }
        guard length <= maxFrameSize else { throw ReplayError.protocolViolation("a frame over \(maxFrameSize) bytes") }
        let fin = first & 0x80 != 0
        if opcode.isControlOpcode, !fin || length > 125 {
            throw ReplayError.protocolViolation("a fragmented or oversized control frame")
        }
        guard buffer.readableBytes >= headerLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headerLength)
        guard let payload = buffer.readSlice(length: length) else { return nil }
        pending = buffer.readableBytes == 0 ? nil : buffer
        return Frame(fin: fin, opcode: opcode, payload: payload)
    }
}
