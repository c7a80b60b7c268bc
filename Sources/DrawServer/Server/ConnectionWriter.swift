import NIOCore
import NIOWebSocket

/// Writes one connection's `Outbox` to its socket, on the connection's event loop.
///
/// The event loop is the single writer of the connection: drains run there, one after
/// another, and the WebSocket layer's own frames (pongs, the close handshake) are written
/// there too, so frames never interleave. Everything queued since the last drain goes
/// out as one batch with one flush (one `writev`). Frames arrive encoded (`WireFrame`) and
/// go out as they are; only binary frames queued back to back are merged into one (the
/// protocol allows a server to merge drawing frames), which happens when a client is
/// behind.
///
/// While the socket is not writable nothing is taken from the outbox, so a client that
/// stops reading fills its bounded outbox and is closed with 4008, rather than piling
/// frames up in the channel.
final class ConnectionWriter: Sendable {
    /// Where frames go: the socket in production, a counter in benchmarks.
    protocol Sink: Sendable {
        var eventLoop: any EventLoop { get }
        /// Whether the socket takes more bytes now.
        var isWritable: Bool { get }
        /// Called on the event loop; writes without flushing.
        func write(_ frame: WireFrame)
        /// Called on the event loop after a batch.
        func flush()
        /// Starts the close handshake after everything written so far.
        func close(_ close: Outbox.Close)
    }

    let outbox: Outbox
    let sink: any Sink
    let maxFrameSize: Int
    private let scheduler: EventLoopWriteScheduler
    /// The array drains swap with the outbox's, kept between drains.
    private let spare: NIOLoopBoundBox<[WireFrame]>

    init(outbox: Outbox, sink: any Sink, maxFrameSize: Int, scheduler: EventLoopWriteScheduler) {
        precondition(scheduler.eventLoop === sink.eventLoop, "a writer is drained on its own connection's event loop")
        self.outbox = outbox
        self.sink = sink
        self.maxFrameSize = maxFrameSize
        self.scheduler = scheduler
        self.spare = NIOLoopBoundBox.makeBoxSendingValue([], eventLoop: sink.eventLoop)
        outbox.setWorkHandler { [weak self] in
            guard let self else { return }
            self.scheduler.schedule(self)
        }
    }

    /// Writes what is queued. Runs on the event loop (scheduled, or when the socket
    /// becomes writable again).
    func drain() {
        guard sink.isWritable else { return }
        var frames = spare.value
        spare.value = []
        var close: Outbox.Close?
        guard outbox.take(into: &frames, close: &close) else {
            spare.value = frames
            return
        }
        write(frames)
        if !frames.isEmpty { sink.flush() }
        if let close { sink.close(close) }
        frames.removeAll(keepingCapacity: true)
        spare.value = frames
    }

    /// Writes `frames` in order, each run of binary frames as one frame when it fits.
    private func write(_ frames: [WireFrame]) {
        var index = frames.startIndex
        while index < frames.endIndex {
            guard frames[index].kind == .binary else {
                sink.write(frames[index])
                index += 1
                continue
            }
            var end = index + 1
            var length = frames[index].payloadLength
            while end < frames.endIndex, frames[end].kind == .binary, length + frames[end].payloadLength <= maxFrameSize {
                length += frames[end].payloadLength
                end += 1
            }
            sink.write(end == index + 1 ? frames[index] : WireFrame.merged(frames[index..<end]))
            index = end
        }
    }
}
