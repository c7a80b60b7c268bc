import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// The one task that writes to a connection's socket, draining its `Outbox`.
///
/// Binary frames queued back to back are merged into one frame (the protocol allows a
/// server to merge drawing frames), so a busy room costs one socket write per batch
/// rather than one per stroke.
struct ConnectionWriter {
    let outbox: Outbox
    let outbound: WebSocketOutboundWriter
    let maxFrameSize: Int
    let hardClose: @Sendable () -> Void

    func run() async {
        while let batch = await outbox.next() {
            do {
                for frame in Self.coalesce(batch.frames, maxFrameSize: maxFrameSize) {
                    switch frame {
                    case .text(let buffer):
                        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: buffer)))
                    case .binary(let buffer):
                        try await outbound.write(.binary(buffer))
                    case .ping(let payload):
                        var data = ByteBuffer()
                        data.writeInteger(payload)
                        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .ping, data: data)))
                    }
                }
                if let close = batch.close {
                    try await outbound.close(WebSocketErrorCode(codeNumber: Int(close.code)), reason: close.reason)
                    // A peer that never answers the close handshake is cut off.
                    try await Task.sleep(for: .seconds(3))
                    hardClose()
                    return
                }
            } catch {
                return
            }
        }
    }

    /// Merges runs of binary frames up to the frame size limit; text frames stay as they are.
    static func coalesce(_ frames: [Outbox.Frame], maxFrameSize: Int) -> [Outbox.Frame] {
        guard frames.count > 1 else { return frames }
        var out: [Outbox.Frame] = []
        out.reserveCapacity(frames.count)
        var pending: ByteBuffer?
        for frame in frames {
            switch frame {
            case .text, .ping:
                if let run = pending { out.append(.binary(run)) }
                pending = nil
                out.append(frame)
            case .binary(let buffer):
                if var run = pending, run.readableBytes + buffer.readableBytes <= maxFrameSize {
                    pending = nil  // keep the buffer uniquely referenced while appending
                    var copy = buffer
                    run.writeBuffer(&copy)
                    pending = run
                } else {
                    if let run = pending { out.append(.binary(run)) }
                    pending = buffer
                }
            }
        }
        if let run = pending { out.append(.binary(run)) }
        return out
    }
}
