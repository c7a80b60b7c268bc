import NIOCore
import NIOWebSocket

/// Writes one connection's `Outbox` to its socket, on the connection's event loop.
///
/// The event loop is the single writer of the connection: drains run there, one after
/// another, and the WebSocket layer's own frames (pongs, the close handshake) are written
/// there too, so frames never interleave. Everything queued since the last drain goes
/// out as one batch, in one system call (see `SocketHandler`). Frames arrive encoded
/// (`WireFrame`) and go out as they are; only binary frames queued back to back are merged
/// into one (the protocol allows a server to merge drawing frames), which happens when a
/// client is behind.
///
/// While the socket is not writable nothing is taken from the outbox, so a client that
/// stops reading fills its bounded outbox and is closed with 4008, rather than piling
/// frames up in the channel.
///
/// Sendable because rooms on any thread wake it (`workArrived` touches only the immutable
/// scheduler); everything else, the sink and the spare array, is used on the event loop
/// only, in `drain`. The drain touches few objects on purpose: on the hot path each
/// connection-owned object visited is a likely cache and TLB miss.
package final class ConnectionWriter: @unchecked Sendable {
    /// Where frames go: the connection's `SocketHandler` in production, a counter in
    /// benchmarks. Used on the event loop only.
    package protocol Sink: AnyObject {
        var eventLoop: any EventLoop { get }
        /// Whether the socket takes more bytes now.
        var isWritable: Bool { get }
        /// Writes a frame's bytes; with `flush`, the batch then goes to the socket. A drain
        /// writes its frames back to back, the last with `flush`, and nothing else writes to
        /// the connection in between, so a sink may hold a batch until its flush.
        func write(_ frame: WireFrame, flush: Bool)
        /// Writes the rest of a frame a room sent at once (`Outbox.sendReserved`) that the
        /// socket took only part of, before anything else is written to the connection.
        func writeRemainder(_ rest: ByteBuffer)
        /// Starts the close handshake after everything written so far.
        func close(_ close: Outbox.Close)
    }

    let outbox: Outbox
    let maxFrameSize: Int
    let scheduler: EventLoopWriteScheduler
    /// On the event loop only. Unowned, for the reason the outbox's reference to this writer
    /// is: the sink (the connection's handler) owns this writer. Touched only while
    /// `sinkAttached`, which the sink clears when it leaves the pipeline; the writer may
    /// outlive it briefly, in its scheduler's queue.
    private unowned(safe) let sink: any Sink
    /// On the event loop only.
    private var sinkAttached = true
    /// The array drains swap with the outbox's, kept between drains. On the event loop only.
    private var spare: [WireFrame] = []

    package init(outbox: Outbox, sink: any Sink, maxFrameSize: Int, scheduler: EventLoopWriteScheduler) {
        precondition(scheduler.eventLoop === sink.eventLoop, "a writer is drained on its own connection's event loop")
        self.outbox = outbox
        self.sink = sink
        self.maxFrameSize = maxFrameSize
        self.scheduler = scheduler
        outbox.setWriter(self)
    }

    /// The outbox got work while no drain was requested: drain on the next event-loop turn.
    func workArrived() {
        scheduler.schedule(self)
    }

    /// Writes the rest of a frame the socket took only part of. On the event loop only.
    func writeRemainder(_ rest: ByteBuffer) {
        guard sinkAttached else { return }
        sink.writeRemainder(rest)
    }

    /// The sink left the pipeline (the channel closed): nothing more is queued or written,
    /// and neither the outbox nor this writer refers to the sink or the writer again. On
    /// the event loop, called by the sink before it lets go of this writer.
    func connectionClosed() {
        sinkAttached = false
        outbox.finish()
    }

    /// Writes what is queued. Runs on the event loop (scheduled, or when the socket
    /// becomes writable again).
    func drain() {
        guard sinkAttached, sink.isWritable else { return }
        var frames = spare
        spare = []
        var close: Outbox.Close?
        guard outbox.take(into: &frames, close: &close) else {
            spare = frames
            return
        }
        LockAudit.systemCall("writes to a socket")
        write(frames, to: sink)
        if let close { sink.close(close) }
        frames.removeAll(keepingCapacity: true)
        spare = frames
    }

    /// Writes `frames` in order, each run of binary frames as one frame when it fits, and
    /// flushes with the last.
    private func write(_ frames: [WireFrame], to sink: any Sink) {
        var index = frames.startIndex
        while index < frames.endIndex {
            guard frames[index].kind == .binary else {
                sink.write(frames[index], flush: index + 1 == frames.endIndex)
                index += 1
                continue
            }
            var end = index + 1
            var length = frames[index].payloadLength
            while end < frames.endIndex, frames[end].kind == .binary, length + frames[end].payloadLength <= maxFrameSize {
                length += frames[end].payloadLength
                end += 1
            }
            sink.write(end == index + 1 ? frames[index] : WireFrame.merged(frames[index..<end]), flush: end == frames.endIndex)
            index = end
        }
    }
}
