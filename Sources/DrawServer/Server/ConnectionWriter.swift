import NIOCore
import NIOWebSocket

/// Writes one connection's `Outbox` to its socket, on the connection's event loop.
///
/// The event loop is the single writer of the connection: drains run there, one after
/// another, and the WebSocket layer's own frames (pongs, the close handshake) are written
/// there too, so frames never interleave. Everything queued since the last drain goes
/// out as one batch with one flush (one `writev`), and binary frames queued back to back
/// are merged into one frame (the protocol allows a server to merge drawing frames).
///
/// While the socket is not writable nothing is taken from the outbox, so a client that
/// stops reading fills its bounded outbox and is closed with 4008, rather than piling
/// frames up in the channel.
final class ConnectionWriter: Sendable {
    /// Where frames go: the channel pipeline in production, a counter in benchmarks.
    protocol Sink: Sendable {
        var eventLoop: any EventLoop { get }
        /// Whether the socket takes more bytes now.
        var isWritable: Bool { get }
        /// Called on the event loop; writes without flushing.
        func write(_ frame: WebSocketFrame)
        /// Called on the event loop after a batch.
        func flush()
        /// Starts the close handshake after everything written so far.
        func close(_ close: Outbox.Close)
    }

    let outbox: Outbox
    let sink: any Sink
    let maxFrameSize: Int
    private let scheduler: EventLoopWriteScheduler

    init(outbox: Outbox, sink: any Sink, maxFrameSize: Int, scheduler: EventLoopWriteScheduler) {
        precondition(scheduler.eventLoop === sink.eventLoop, "a writer is drained on its own connection's event loop")
        self.outbox = outbox
        self.sink = sink
        self.maxFrameSize = maxFrameSize
        self.scheduler = scheduler
        outbox.setWorkHandler { [weak self] in
            guard let self else { return }
            self.scheduler.schedule(self)
        }
    }

    /// Writes what is queued. Runs on the event loop (scheduled, or when the socket
    /// becomes writable again).
    func drain() {
        sink.eventLoop.assertInEventLoop()
        guard sink.isWritable, let batch = outbox.takeBatch() else { return }
        let frames = Self.coalesce(batch.frames, maxFrameSize: maxFrameSize)
        for frame in frames {
            switch frame {
            case .text(let buffer):
                sink.write(WebSocketFrame(fin: true, opcode: .text, data: buffer))
            case .binary(let buffer):
                sink.write(WebSocketFrame(fin: true, opcode: .binary, data: buffer))
            case .ping(let payload):
                var data = ByteBuffer()
                data.writeInteger(payload)
                sink.write(WebSocketFrame(fin: true, opcode: .ping, data: data))
            }
        }
        if !frames.isEmpty { sink.flush() }
        if let close = batch.close { sink.close(close) }
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
