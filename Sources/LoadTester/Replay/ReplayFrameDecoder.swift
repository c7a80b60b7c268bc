import NIOCore
import NIOWebSocket
import WebSocketFrames

/// Splits what a server sends into WebSocket frames, for the replay client, and refuses
/// what a server may not send.
///
/// The load generator reads every delivery of a run on one core, so its frame decoding is
/// on the measured path: `WebSocketFrameParser` parses frames straight out of the buffers
/// the socket read, where NIO's `ByteToMessageHandler` and `WebSocketFrameDecoder` cost
/// a large share of the client's CPU (docs/benchmarks/replay.md). No extension is negotiated, so reserved bits are an
/// error, and a server never masks.
struct ReplayFrameDecoder {
    typealias Frame = WebSocketFrameParser.Frame

    private var parser: WebSocketFrameParser

    init(maxFrameSize: Int) {
        parser = WebSocketFrameParser(maxFrameSize: maxFrameSize)
    }

    /// Adds bytes read from the socket.
    mutating func append(_ bytes: ByteBuffer) {
        parser.append(bytes)
    }

    /// Whether bytes were added that are not yet returned as frames.
    var hasPendingBytes: Bool { parser.hasPendingBytes }

    /// The next whole frame, or nil until more bytes arrive. Throws a
    /// `ReplayError.protocolViolation` for bytes that are not a frame a server may send.
    mutating func next() throws -> Frame? {
        let frame: Frame?
        do {
            frame = try parser.next()
        } catch {
            throw ReplayError.protocolViolation(error.kind == .tooBig ? "a frame over \(parser.maxFrameSize) bytes" : "a fragmented or oversized control frame")
        }
        guard let frame else { return nil }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else { throw ReplayError.protocolViolation("reserved bits set without an extension") }
        // NIO represents every 4-bit value; RFC 6455 defines only these.
        switch frame.opcode {
        case .continuation, .text, .binary, .connectionClose, .ping, .pong: break
        default: throw ReplayError.protocolViolation("unknown opcode \(UInt8(webSocketOpcode: frame.opcode))")
        }
        guard !frame.isMasked else { throw ReplayError.protocolViolation("a masked frame from the server") }
        return frame
    }
}
