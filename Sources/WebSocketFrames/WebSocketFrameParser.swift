import NIOCore
import NIOWebSocket

/// Splits the bytes a WebSocket peer sends into frames (RFC 6455 section 5.2), for both ends:
/// the server's `WebSocketReceiver` and the replay client's `ReplayFrameDecoder`.
///
/// It parses straight out of the buffers the socket read: a payload is a slice of them,
/// copied only to unmask it or when a frame spans two reads. On the server this replaced
/// NIO's `ByteToMessageHandler` and `WebSocketFrameDecoder`, two more handlers (and their
/// contexts and buffer) that every drawing frame passed on its way in, and in the load
/// generator a large share of its CPU (docs/benchmarks/replay.md).
///
/// It refuses only what makes the byte stream unreadable or too big: the frame's meaning
/// (masking, reserved bits, opcodes, fragmentation) is for its user to judge.
package struct WebSocketFrameParser {
    /// One frame, its payload unmasked.
    package struct Frame: Equatable {
        package var fin: Bool
        package var rsv1 = false
        package var rsv2 = false
        package var rsv3 = false
        /// Any 4-bit value: NIO's type represents the reserved ones too.
        package var opcode: WebSocketOpcode
        /// Whether the sender masked it (clients must, servers must not).
        package var isMasked: Bool
        package var payload: ByteBuffer

        package init(fin: Bool, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false, opcode: WebSocketOpcode, isMasked: Bool, payload: ByteBuffer) {
            self.fin = fin
            self.rsv1 = rsv1
            self.rsv2 = rsv2
            self.rsv3 = rsv3
            self.opcode = opcode
            self.isMasked = isMasked
            self.payload = payload
        }
    }

    /// Bytes that cannot be read as frames within the limit: the connection has to close.
    package struct Violation: Error, Equatable {
        package enum Kind: Sendable, Equatable {
            /// A frame over `maxFrameSize` (close code 1009).
            case tooBig
            /// A malformed control frame (close code 1002).
            case protocolError
        }
        package var kind: Kind
        package var reason: String
    }

    /// The largest payload accepted in one frame.
    package let maxFrameSize: Int
    /// Bytes read but not yet returned as frames; nil when there are none, so an idle
    /// connection holds no read buffer.
    private var pending: ByteBuffer?

    /// Whether bytes were read that are not yet returned as frames.
    package var hasPendingBytes: Bool { pending.map { $0.readableBytes > 0 } ?? false }

    package init(maxFrameSize: Int) {
        self.maxFrameSize = maxFrameSize
    }

    /// Adds bytes read from the socket.
    package mutating func append(_ bytes: ByteBuffer) {
        guard var buffered = pending else {
            pending = bytes
            return
        }
        pending = nil  // so the write below does not copy the storage for a second owner
        var bytes = bytes
        buffered.writeBuffer(&bytes)
        pending = buffered
    }

    /// Drops what is buffered (nothing more will be read from this peer).
    package mutating func discard() {
        pending = nil
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func next() throws(Violation) -> Frame? {
        guard var buffer = pending, buffer.readableBytes >= 2,
              let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
              let second = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self),
              let opcode = WebSocketOpcode(encodedWebSocketOpcode: first & 0x0F)
        else { return nil }
        let fin = first & 0x80 != 0
        var length = Int(second & 0x7F)
        if opcode.isControlOpcode {
            guard fin else { throw Violation(kind: .protocolError, reason: "fragmented control frame") }
            guard length <= 125 else { throw Violation(kind: .protocolError, reason: "control frame over 125 bytes") }
        }
        var headerLength = 2
        if length == 126 {
            guard let extended = buffer.getInteger(at: buffer.readerIndex + 2, as: UInt16.self) else { return nil }
            headerLength = 4
            length = Int(extended)
        } else if length == 127 {
            guard let extended = buffer.getInteger(at: buffer.readerIndex + 2, as: UInt64.self) else { return nil }
            headerLength = 10
            guard extended <= UInt64(maxFrameSize) else { throw Self.tooBig }
            length = Int(extended)
        }
        guard length <= maxFrameSize else { throw Self.tooBig }
        let isMasked = second & 0x80 != 0
        let maskOffset = headerLength
        if isMasked { headerLength += 4 }
        guard buffer.readableBytes >= headerLength + length else { return nil }
        let maskKey = isMasked ? buffer.viewBytes(at: buffer.readerIndex + maskOffset, length: 4).flatMap(WebSocketMaskingKey.init) : nil
        buffer.moveReaderIndex(forwardBy: headerLength)
        guard var payload = buffer.readSlice(length: length) else { return nil }
        pending = buffer.readableBytes == 0 ? nil : buffer
        if let maskKey { payload.webSocketUnmask(maskKey) }
        return Frame(
            fin: fin, rsv1: first & 0x40 != 0, rsv2: first & 0x20 != 0, rsv3: first & 0x10 != 0,
            opcode: opcode, isMasked: isMasked, payload: payload
        )
    }

    private static var tooBig: Violation { Violation(kind: .tooBig, reason: "frame too big") }
}
