import DrawProtocol
import Glibc
import NIOCore

/// The socket's end of a game connection's pipeline, on the connection's event loop: the
/// code that decides how the connection's bytes reach its socket. It also notes when the
/// peer last sent anything (for the heartbeat), keeps the channel's writability (resuming
/// the output's drains when the socket drains), and finishes the output when the channel
/// goes.
///
/// Frames leave as the batches of the connection's `ConnectionOutput` (`write`): drained,
/// or written at once when a frame overtakes nothing. A batch goes straight to the socket
/// in one `send` or `sendmsg`, past NIO's channel write path, which is most of what a
/// write costs outside the kernel. The invariant that makes that safe:
///
///   **Bytes written straight to the socket never overtake bytes NIO holds.** Every write
///   handed to NIO (the WebSocket layer's pongs and close frames pass through here; so
///   does whatever the socket did not take) is counted until it completes, and while any
///   is outstanding every frame goes through NIO behind it. Everything runs on this event
///   loop, and the output writes at once only while this handler says it may
///   (`publishImmediateSends`: open, writable, nothing in NIO).
///
/// Guarded by `DirectWriteTests` (frames written straight, queued, and through NIO, with a
/// socket that keeps filling up, arrive whole and in order). NIO keeps handling everything
/// else: a full socket (it waits for `EPOLLOUT` and reports writability, which stops the
/// drains), errors and the close. The descriptor is taken once, from
/// `withUnsafeTransportIfAvailable`, and dropped at `channelInactive`, which NIO fires on
/// this loop right after closing it and before any other work runs there, so a recycled
/// descriptor number is never written to.
///
/// Reads are NIO's, except on a busy loop: there the loop's `ReadPoller` reads the socket
/// (`pollRead`) while the WebSocket layer holds NIO's reads back, and hands it back to NIO
/// at the end of input, an error, held-back input or the close (NIO then finds and handles
/// what made it stop).
final class SocketHandler: ChannelDuplexHandler, ConnectionSink, PolledReader {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    let activity: ActivityMonitor
    let eventLoop: any EventLoop
    /// The connection's output, set once the handler is in the pipeline. Owned here (the
    /// output lets go of this handler when it finishes).
    var output: ConnectionOutput? {
        didSet {
            publishedImmediate = nil
            publishImmediateSends()
            // Set after the channel went: finished at once, as `handlerRemoved` would have.
            if removed { output?.finish() } else { output?.attach(self) }
        }
    }
    /// Set with the output; sends the close handshake.
    var webSocket: WebSocketProtocolHandler?
    /// The channel's writability, kept here because every drain asks for it: reading the
    /// channel's own flag costs a call through its protocol and a visit to another object.
    private(set) var isWritable = true
    private var context: ChannelHandlerContext?
    /// The current drain's frames, sent together at its flush; kept between drains.
    private var unsent: [ByteBuffer] = []
    /// Writes handed to NIO and not completed yet. While any is, frames go through NIO too.
    private var writesInNIO = 0
    /// The channel's socket while it is open; nil for channels without one (tests).
    private var socket: NIOBSDSocket.Handle?
    /// Drains whose frames all went straight to the socket, and those NIO wrote (some or all).
    private(set) var batchesSentDirectly = 0
    private(set) var batchesHandedToNIO = 0
    /// What the outbox was last told about sending at once.
    private var publishedImmediate: Bool?
    /// The handler left the pipeline: the channel is gone.
    private var removed = false

    /// The loop's read poller, when the server has one, and this socket's id there while it
    /// reads the socket (`ReadPoller`).
    var poller: ReadPoller?
    private var pollID: UInt64?

    /// Whether frames may go straight to the socket at all (false: only in tests of the plain path).
    private let directWrites: Bool

    init(activity: ActivityMonitor, eventLoop: any EventLoop, directWrites: Bool = true) {
        self.activity = activity
        self.eventLoop = eventLoop
        self.directWrites = directWrites
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        isWritable = context.channel.isWritable
        if context.channel.isActive { takeSocket(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        takeSocket(context)
        context.fireChannelActive()
    }

    private func takeSocket(_ context: ChannelHandlerContext) {
        // Without a descriptor every frame goes through NIO.
        guard directWrites else { return }
        socket = try? context.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) { $0 }
        publishImmediateSends()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Closed: it left the poller's epoll set with the descriptor.
        if let pollID { poller?.forget(pollID, open: false) }
        pollID = nil
        socket = nil
        publishImmediateSends()
        context.fireChannelInactive()
    }

    /// The channel closed: nothing more is queued for it.
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        removed = true
        if let pollID { poller?.forget(pollID, open: socket != nil) }
        pollID = nil
        socket = nil
        isWritable = false
        publishImmediateSends()
        output?.finish()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        activity.touch()
        context.fireChannelRead(data)
        // Read in a turn that has read more than a batch through NIO: the poller reads it.
        if pollID == nil, let poller, poller.nioRead() { startPolling() }
    }

    // MARK: - Read by the loop's poller

    private func startPolling() {
        guard let poller, let socket, let webSocket, webSocket.mayBePolled,
              let id = poller.register(socket: socket, reader: self) else { return }
        pollID = id
        webSocket.startPolling()
    }

    func pollRead(into scratch: UnsafeMutableRawBufferPointer) -> PolledRead {
        guard let socket, let context, let webSocket, webSocket.mayBePolled else {
            returnToNIO()
            return .handBack
        }
        let result = recv(socket, scratch.baseAddress, scratch.count, CInt(MSG_DONTWAIT))
        guard result > 0 else {
            if result < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .empty }
            // The end of input or an error: NIO's own read finds it and closes as it does.
            returnToNIO()
            return .handBack
        }
        activity.touch()
        webSocket.ingest(context.channel.allocator.buffer(bytes: UnsafeRawBufferPointer(rebasing: scratch[0..<result])))
        // As at the end of a NIO read: what the read queued goes out now.
        output?.delivery.drainNow(except: output)
        guard webSocket.mayBePolled else {
            returnToNIO()
            return .handBack
        }
        return .read
    }

    func returnToNIO() {
        pollID = nil
        webSocket?.stopPolling()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        output?.delivery.drainNow(except: output)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        publishImmediateSends()
        if isWritable { output?.drain() }
        context.fireChannelWritabilityChanged()
    }

    /// Queues a frame's bytes; with `flush`, the drain's frames go to the socket.
    func write(_ frame: WireFrame, flush: Bool) {
        guard let context else { return }
        unsent.append(frame.bytes)
        guard flush else { return }
        defer { unsent.removeAll(keepingCapacity: true) }
        var first = 0
        if writesInNIO == 0 {
            first = sendDirectly()
            guard first < unsent.count else {
                batchesSentDirectly &+= 1
                return
            }
        }
        batchesHandedToNIO &+= 1
        // Behind NIO's own writes, or what the socket did not take: NIO writes it.
        let written = context.eventLoop.makePromise(of: Void.self)
        track(written.futureResult)
        for index in first..<(unsent.count - 1) {
            context.write(NIOAny(unsent[index]), promise: nil)
        }
        context.writeAndFlush(NIOAny(unsent[unsent.count - 1]), promise: written)
    }

    /// The rest of a frame the output sent straight to the socket that the socket took only
    /// part of: NIO writes it, and the connection's frames queue behind it.
    func writeRemainder(_ rest: ByteBuffer) {
        writeThroughNIO(rest)
    }

    /// Bytes NIO writes; while it does, the connection's frames queue behind them.
    private func writeThroughNIO(_ bytes: ByteBuffer) {
        guard let context else { return }
        batchesHandedToNIO &+= 1
        let written = context.eventLoop.makePromise(of: Void.self)
        track(written.futureResult)
        context.writeAndFlush(NIOAny(bytes), promise: written)
    }

    /// Tells the output whether a frame may go straight to the socket now: while the channel
    /// is open and writable and NIO has nothing of this connection's to write. Called
    /// whenever one of those changes, on this loop.
    private func publishImmediateSends() {
        let allowed = isWritable && writesInNIO == 0 && context != nil && socket != nil
        guard allowed != publishedImmediate, let output else { return }
        publishedImmediate = allowed
        output.directSocket = allowed ? socket : nil
    }

    /// Sends `unsent` straight to the socket, as far as it takes it; returns the index of
    /// the first buffer not (fully) sent, trimming that one to what is left.
    private func sendDirectly() -> Int {
        guard let socket else { return 0 }
        var first = 0
        while first < unsent.count {
            guard var sent = SocketWrite.send(unsent, from: first, to: socket), sent > 0 else { return first }
            while first < unsent.count, sent >= unsent[first].readableBytes {
                sent -= unsent[first].readableBytes
                first += 1
            }
            if sent > 0 {
                unsent[first].moveReaderIndex(forwardBy: sent)
                return first
            }
        }
        return first
    }

    /// Counts a write NIO has until it completes, however it completes.
    private func track(_ write: EventLoopFuture<Void>) {
        writesInNIO += 1
        publishImmediateSends()
        write.assumeIsolated().whenComplete { _ in
            self.writesInNIO -= 1
            self.publishImmediateSends()
        }
    }

    /// The WebSocket layer's own frames (pongs, close frames) on their way to the socket.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise()
        track(written.futureResult)
        context.write(data, promise: written)
    }

    func close(_ close: Outbox.Close) {
        // Queued behind what this drain just flushed, on the same loop. Without waiting for
        // the answer (after abuse) the server closes first (RFC 6455 section 7.1.1): the
        // close frame goes out before the FIN, and nothing more is read from the abuser.
        webSocket?.close(code: close.code, reason: close.reason, waitForAnswer: close.waitsForAnswer, keepReceiving: close.keepsReceiving)
    }
}
