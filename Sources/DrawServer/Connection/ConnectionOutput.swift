import DrawProtocol
import NIOCore

/// Where a connection's frames go: its `SocketHandler`, or a counter in benchmarks. Used on
/// the connection's event loop only.
package protocol ConnectionSink: AnyObject {
    /// Whether the socket takes more bytes now.
    var isWritable: Bool { get }
    /// Writes a frame's bytes; with `flush`, the batch then goes to the socket. A drain
    /// writes its frames back to back, the last with `flush`, and nothing else writes to the
    /// connection in between, so a sink may hold a batch until its flush.
    func write(_ frame: WireFrame, flush: Bool)
    /// Writes the rest of a frame sent straight to the socket (`ConnectionOutput.sendReserved`)
    /// that the socket took only part of, before anything else is written.
    func writeRemainder(_ rest: ByteBuffer)
    /// Starts the close handshake after everything written so far.
    func close(_ close: Outbox.Close)
}



/// One connection's output: its bounded queue, its close, and the writes to its sink.
///
/// Owned by the connection's event loop and not `Sendable`: it is reached through the
/// connection's `Outbox` (a `NIOLoopBound`), through its loop's `LoopDelivery`, or by the
/// connection's own handler, all on that loop. So it needs no lock, and no thread but the
/// loop's ever touches the socket. Frames from elsewhere reach it by a hand-off to the loop
/// (`LoopDelivery.handOff`), which keeps them in the order their room decided.
///
/// Frames arrive encoded (`WireFrame`) and go out as they are; binary frames queued back to
/// back are merged into one (the protocol allows a server to merge drawing frames), which
/// happens when a client is behind. A client that cannot keep up overflows the queue: its
/// frames are dropped, it is closed with 4008, and if its socket does not drain the close
/// within `Outbox.overflowCloseGrace` the channel is closed outright.
final class ConnectionOutput {
    /// The most bytes that may wait in the queue.
    let limit: Int
    /// The largest frame that merging may make.
    let maxFrameSize: Int
    /// The connection's loop: where it is drained, and where it is listed for a drain.
    let delivery: LoopDelivery
    private let hardClose: @Sendable () -> Void
    private let onOverflow: @Sendable () -> Void

    /// Nil until the connection's handler is in place, and again once the channel is gone:
    /// the handler owns this output, and letting go of the sink there ends the cycle.
    private(set) var sink: (any ConnectionSink)?
    private var frames: [WireFrame] = []
    /// The array a drain swaps with `frames`, kept between drains so a drain allocates nothing.
    private var spare: [WireFrame] = []
    private(set) var queuedBytes = 0
    private(set) var close: Outbox.Close?
    /// Nothing more is queued or written: the close went out, or the connection is gone.
    private(set) var finished = false
    /// Listed in the loop's drains (`LoopDelivery`), which will drain it.
    var listedForDrain = false
    /// How many times a frame went to the socket at once, without waiting for a drain.
    private(set) var immediateSends = 0
    /// A frame `accept` reserved the socket for is on its way (`sendReserved`): frames
    /// accepted meanwhile queue behind it.
    private var reserved = false
    /// The socket a frame may be written to at once, overtaking nothing: the sink says so
    /// whenever that changes (open, writable, nothing of the connection's in NIO), and nil
    /// otherwise. Kept here so a fan-out visits no other object of the connection's; a
    /// plain descriptor, used on this loop only, and taken back there before it is closed.
    var directSocket: CInt?

    init(
        limit: Int, maxFrameSize: Int, delivery: LoopDelivery,
        hardClose: @escaping @Sendable () -> Void, onOverflow: @escaping @Sendable () -> Void
    ) {
        self.limit = limit
        self.maxFrameSize = maxFrameSize
        self.delivery = delivery
        self.hardClose = hardClose
        self.onOverflow = onOverflow
    }

    /// What `accept` did with a frame, and what its caller must do next.
    enum Acceptance {
        /// Not queued: the socket takes it now and nothing waits before it. Reserved for it:
        /// call `sendReserved` with it once no lock is held, before anything else is written
        /// to this connection.
        case reserved
        /// Queued; list the output for a drain (`LoopDelivery.list`).
        case listForDrain
        /// Queued behind frames already listed for a drain.
        case queued
        /// The connection is closing: dropped.
        case refused
        /// The queue overflowed: dropped with everything queued, and the 4008 close queued.
        /// List the output for a drain (when `listForDrain`) and, holding no lock, call
        /// `overflowed()`.
        case overflowed(listForDrain: Bool)
    }

    /// Queues a frame, making no system call. With `atOnce`, a frame that overtakes nothing
    /// and finds the socket taking frames asks to be sent now rather than at the next drain.
    func accept(_ frame: WireFrame, atOnce: Bool) -> Acceptance {
        guard close == nil, !finished else { return .refused }
        let length = frame.bytes.readableBytes
        guard queuedBytes + length <= limit else {
            frames.removeAll()
            queuedBytes = 0
            close = Outbox.Close(code: .tooSlowToRead, reason: "too slow to read: reconnect with your token")
            return .overflowed(listForDrain: !listedForDrain)
        }
        if atOnce, !reserved, frames.isEmpty, !listedForDrain, directSocket != nil {
            reserved = true
            return .reserved
        }
        frames.append(frame)
        queuedBytes += length
        return listedForDrain ? .queued : .listForDrain
    }

    /// Writes the frame `accept` reserved the socket for. Frames queued behind it meanwhile
    /// are listed for a drain, which runs after this on the same loop. Should the socket have
    /// stopped taking frames at once in between, the frame goes first in the queue instead.
    func sendReserved(_ frame: WireFrame) {
        reserved = false
        guard let socket = directSocket, let sink, !finished, close == nil else {
            guard !finished else { return }
            frames.insert(frame, at: 0)
            queuedBytes += frame.bytes.readableBytes
            delivery.list(self)
            return
        }
        immediateSends &+= 1
        LockAudit.systemCall("writes to a socket")
        let length = frame.bytes.readableBytes
        let sent = frame.bytes.withUnsafeReadableBytes { SocketWrite.send($0, to: socket) } ?? 0
        guard sent < length else { return }
        // Rare: the socket's buffer is full. NIO writes the rest, and the sink stops direct
        // writes until it has.
        var rest = frame.bytes
        rest.moveReaderIndex(forwardBy: sent)
        sink.writeRemainder(rest)
    }

    /// Gives an overflowed client's socket `Outbox.overflowCloseGrace` to take the 4008
    /// close. The caller holds no lock.
    func overflowed() {
        onOverflow()
        LockAudit.systemCall("schedules a hard close")
        let hardClose = self.hardClose
        delivery.eventLoop.scheduleTask(in: Outbox.overflowCloseGrace) { hardClose() }
    }

    /// Asks for the close handshake after what is queued (`flush`) or instead of it; true
    /// when the output must be listed for a drain.
    func requestClose(_ requested: Outbox.Close, flush: Bool) -> Bool {
        guard close == nil, !finished else { return false }
        if !flush {
            frames.removeAll()
            queuedBytes = 0
        }
        close = requested
        return !listedForDrain
    }

    /// The connection's handler is in place: what was queued before goes out now.
    func attach(_ sink: any ConnectionSink) {
        guard !finished else { return }
        self.sink = sink
        if !listedForDrain, !frames.isEmpty || close != nil { delivery.list(self) }
    }

    /// The connection is gone: nothing more is queued or written.
    func finish() {
        finished = true
        directSocket = nil
        frames.removeAll()
        queuedBytes = 0
        sink = nil
    }

    /// Closes the socket at once, without a close handshake (the drain's timeout).
    func abort() {
        finish()
        hardClose()
    }

    var isClosing: Bool { finished || close != nil }

    /// Whether the peer's input is no longer handled: closing for anything but a restart
    /// (`Outbox.Close.keepsReceiving`), or finished otherwise. After a restart's close the
    /// output is finished too (nothing more is written), but input is taken until the
    /// peer's close.
    var refusesInput: Bool { close.map { !$0.keepsReceiving } ?? finished }

    /// Moves what is queued into `taken` and returns the close to send after it, if any;
    /// false when there is nothing. For tests that read what a connection was sent.
    func take(into taken: inout [WireFrame], close takenClose: inout Outbox.Close?) -> Bool {
        guard !finished, !frames.isEmpty || close != nil else { return false }
        swap(&taken, &frames)
        queuedBytes = 0
        takenClose = close
        if close != nil { finished = true }
        return true
    }

    /// Writes what is queued, then the close if one was asked for. Runs on the event loop:
    /// when listed (`LoopDelivery`), or when the socket becomes writable again. While the
    /// socket is not writable nothing is taken, so a client that stops reading fills its
    /// bounded queue and is closed with 4008, rather than piling frames up in the channel.
    func drain() {
        listedForDrain = false
        guard let sink, sink.isWritable, !finished, !frames.isEmpty || close != nil else { return }
        // Swapped out before writing: a write may call back into this output (NIO reports
        // writability from inside it), which then finds nothing left to write.
        var batch = spare
        spare = []
        swap(&batch, &frames)
        queuedBytes = 0
        let close = self.close
        if close != nil { finished = true }
        LockAudit.systemCall("writes to a socket")
        if !batch.isEmpty { write(batch, to: sink) }
        if let close {
            sink.close(close)
            self.sink = nil
        }
        batch.removeAll(keepingCapacity: true)
        spare = batch
    }

    /// Writes `frames` in order, each run of binary frames as one frame when it fits, and
    /// flushes with the last.
    private func write(_ frames: [WireFrame], to sink: any ConnectionSink) {
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
