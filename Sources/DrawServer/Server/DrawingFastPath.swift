import NIOCore
import NIOWebSocket
import Synchronization

/// Between the WebSocket frame decoder and the connection's reader task, on the
/// connection's event loop: a drawing frame is judged and relayed right where it was
/// read, instead of travelling to the reader task and the room actor and back to the
/// recipients' event loops. On one busy core those hops were an eighth of the server's
/// time and, worse, a queue behind every other thread's time slice.
///
/// Order is kept: a frame takes this path only when every message read before it has been
/// handled (`Backlog` is empty); otherwise it goes to the reader like any message, behind
/// the ones still waiting. Anything this path is not sure about is passed on too: text,
/// control and fragmented frames, compressed or unmasked frames (the reader's WebSocket
/// layer decompresses, or closes with the right code), frames over the message limit,
/// and everything after the peer's close or once the connection is closing.
final class DrawingFastPath: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// Messages passed on to the reader task that it has not finished handling.
    final class Backlog: Sendable {
        private let count = Atomic<Int>(0)

        fileprivate func add() { count.add(1, ordering: .relaxed) }

        /// Called by the reader after each message it handled.
        func handled() { count.subtract(1, ordering: .releasing) }

        fileprivate var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }
    }

    private let session: ClientSession
    private let backlog: Backlog
    private let maxMessageBytes: Int
    private var inFragmentedMessage = false
    private var peerClosed = false

    init(session: ClientSession, backlog: Backlog, maxMessageBytes: Int) {
        self.session = session
        self.backlog = backlog
        self.maxMessageBytes = maxMessageBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if isFastPathCandidate(frame), backlog.isEmpty, !session.outbox.isClosing {
            session.receive(binary: frame.unmaskedData)
            return
        }
        switch frame.opcode {
        case .text, .binary:
            if frame.fin { backlog.add() } else { inFragmentedMessage = true }
        case .continuation:
            if frame.fin && inFragmentedMessage {
                inFragmentedMessage = false
                backlog.add()
            }
        case .connectionClose:
            peerClosed = true
        default:
            break
        }
        context.fireChannelRead(data)
    }

    private func isFastPathCandidate(_ frame: WebSocketFrame) -> Bool {
        frame.opcode == .binary && frame.fin && !inFragmentedMessage && !peerClosed
            && !frame.rsv1 && !frame.rsv2 && !frame.rsv3 && frame.maskKey != nil
            && frame.length <= maxMessageBytes
    }
}
