import CoreMetrics
import DrawProtocol
import Glibc
import NIOCore
import Synchronization

/// The outbound queue of one WebSocket connection, bounded in bytes.
///
/// Rooms and the session put frames in without ever waiting (a room must never wait on
/// a client's socket); the connection's `ConnectionWriter` takes them out on the
/// connection's event loop. The first frame queued after a drain wakes the writer, which
/// schedules the next drain, so however many frames a room fans out in one go, the
/// writer is woken once. A client that cannot keep up overflows the queue: its frames
/// are dropped, it is closed with 4008, and if its socket does not drain the close
/// within `overflowCloseGrace` the channel is closed outright.
package final class Outbox: Sendable {
    package struct Close: Sendable, Equatable {
        package var code: CloseCode
        package var reason: String

        /// Whether the server waits for the peer's answering close before closing the TCP
        /// connection. Not after abuse (1008, 1009): a flooding peer is busy sending, not
        /// answering, and every byte it sends meanwhile would still be read and decoded.
        package var waitsForAnswer: Bool { code != .policyViolation && code != .messageTooBig }

        /// Whether what the peer sends until its answering close is still handled. Only for
        /// a restart (1012): the player did nothing wrong and is coming back, so a stroke
        /// drawn while the close was on its way is kept, stored and relayed (RFC 6455 lets
        /// an endpoint receive until the handshake completes); the drain waits for it.
        package var keepsReceiving: Bool { code == .serviceRestart }
    }

    fileprivate struct State: Sendable {
        // The fields `send` reads on every frame come first, next to the lock.
        var bytes = 0
        /// True from the first frame queued after a drain until the writer takes the batch:
        /// a drain is scheduled, or waits for the socket to become writable again.
        var drainRequested = false
        var finished = false
        /// The socket a frame may go to at once, and the thread (the connection's event
        /// loop) on which it may, while the socket handler allows it (see
        /// `allowImmediateSends`). Plain values: the fan-out touches no other object.
        var immediate: Immediate?
        /// A frame `reserve` let go at once is being written; others queue behind it.
        var sendInFlight = false
        var immediateSends = 0
        var frames: [WireFrame] = []
        var close: Close?
        /// Woken (outside the lock) when work arrives and no drain is requested yet, and
        /// handed out for frames sent at once. Unowned: the writer owns this outbox, and a
        /// weak reference would give the writer a side table, putting every retain of it on
        /// the slow path. Safe because it is let go, under this lock, before the writer can
        /// be freed: the socket handler, which owns the writer, finishes the outbox when it
        /// leaves the pipeline (`ConnectionWriter.connectionClosed`).
        unowned(safe) var writer: ConnectionWriter?
    }


    /// A socket that takes frames at once, and the thread that may send to it.
    struct Immediate: Sendable {
        var socket: CInt
        var thread: pthread_t
    }

    /// How long a client that overflowed its queue has to read the 4008 close before its
    /// socket is closed outright.
    static let overflowCloseGrace = TimeAmount.seconds(1)

    let limit: Int
    /// The connection's event loop, where the overflow's hard close is scheduled.
    private let eventLoop: (any EventLoop)?
    private let state = Mutex(State())
    private let hardClose: @Sendable () -> Void
    private let onOverflow: @Sendable () -> Void

    /// - Parameters:
    ///   - limit: the most bytes that may wait in the queue.
    ///   - eventLoop: the connection's event loop; without one (tests) an overflow closes
    ///     the socket at once.
    ///   - hardClose: closes the socket without a handshake, for a client that stopped reading.
    ///   - onOverflow: counts an overflow (metrics).
    package init(
        limit: Int, eventLoop: (any EventLoop)? = nil, hardClose: @escaping @Sendable () -> Void,
        onOverflow: @escaping @Sendable () -> Void = {}
    ) {
        self.limit = limit
        self.eventLoop = eventLoop
        self.hardClose = hardClose
        self.onOverflow = onOverflow
    }

    /// Sets the writer that is woken when work arrives. Set once, before the outbox is
    /// shared; work already queued wakes it at once. A finished outbox keeps no writer.
    func setWriter(_ writer: ConnectionWriter) {
        let pending = state.withLock { s -> Bool in
            guard !s.finished else { return false }
            s.writer = writer
            guard !s.drainRequested, !s.frames.isEmpty || s.close != nil else { return false }
            s.drainRequested = true
            return true
        }
        if pending { writer.workArrived() }
    }

    /// Queues a frame, or sends it at once when it may (see `allowImmediateSends`); false
    /// when the connection is closing or the frame overflowed the queue. The caller holds no
    /// lock: this may write to the socket. Under a lock, use `enqueue`, or `reserve` and then
    /// `sendReserved` once the lock is released.
    @discardableResult
    func send(_ frame: WireFrame) -> Bool {
        var wakes = WakeUps()
        let reservation = reserve(frame, wakes: &wakes)
        wakes.run()
        switch reservation {
        case .reserved(let socket):
            sendReserved(frame, to: socket)
            return true
        case .queued:
            return true
        case .refused:
            return false
        }
    }

    /// Queues a frame, and wakes the writer if it must; false when the connection is
    /// closing or the frame overflowed the queue. The caller holds no lock.
    @discardableResult
    func enqueue(_ frame: WireFrame) -> Bool {
        var wakes = WakeUps()
        defer { wakes.run() }
        return enqueue(frame, wakes: &wakes)
    }

    /// Queues a frame, making no system call: the writer to wake, if any, goes into `wakes`
    /// for the caller to wake once its lock is released. False when the connection is
    /// closing or the frame overflowed the queue.
    @discardableResult
    func enqueue(_ frame: WireFrame, wakes: inout WakeUps) -> Bool {
        let outcome = state.withLock { s in s.queue(frame, limit: limit) }
        return finish(outcome, wakes: &wakes)
    }

    /// What `reserve` decided.
    enum Reservation {
        /// The frame is queued for the writer.
        case queued
        /// The frame goes at once to this socket: send it with `sendReserved`, on this
        /// thread, before anything else is sent to this connection from here. Frames sent to
        /// the outbox in between queue behind it.
        case reserved(socket: CInt)
        /// The connection is closing, or the frame overflowed the queue.
        case refused
    }

    /// Queues a frame, or reserves the socket for it: when called on the connection's event
    /// loop while nothing is queued or in flight and immediate sends are allowed. Writes
    /// nothing itself, so a room may reserve for each recipient under its lock and send once
    /// the lock is released (no lock is held across a system call).
    func reserve(_ frame: WireFrame, wakes: inout WakeUps) -> Reservation {
        let outcome = state.withLock { s -> QueueOutcome in
            guard s.close == nil, !s.finished else { return .refused }
            // Nothing queued (`bytes` says so without touching the array's storage), no drain
            // requested or send in flight, and on the connection's event loop: nothing can be
            // overtaken.
            if s.bytes == 0, !s.drainRequested, !s.sendInFlight, let immediate = s.immediate,
               pthread_equal(immediate.thread, pthread_self()) != 0, frame.bytes.readableBytes <= limit {
                s.sendInFlight = true
                return .reserved(socket: immediate.socket)
            }
            return s.queue(frame, limit: limit)
        }
        if case .reserved(let socket) = outcome { return .reserved(socket: socket) }
        return finish(outcome, wakes: &wakes) ? .queued : .refused
    }

    /// Writes a frame `reserve` reserved `socket` for, holding no lock. The descriptor is
    /// still the connection's: the handler withdraws it (`allowImmediateSends`) on this same
    /// thread before the channel closes, and nothing else runs on this thread in between.
    /// What the socket does not take goes through the connection's handler and NIO, and
    /// everything after it queues behind it; frames queued meanwhile are drained after it.
    func sendReserved(_ frame: WireFrame, to socket: CInt) {
        let length = frame.bytes.readableBytes
        LockAudit.systemCall("writes to a socket")
        let sent = frame.bytes.withUnsafeReadableBytes { SocketWrite.send($0, to: socket) } ?? 0
        let (wake, remainderWriter) = state.withLock { s -> (ConnectionWriter?, ConnectionWriter?) in
            s.sendInFlight = false
            s.immediateSends &+= 1
            // Rare: the socket's buffer is full. No more frames at once until the handler
            // allows them again (it withdraws that while NIO writes the rest).
            let remainderWriter = sent < length ? s.writer : nil
            if sent < length { s.immediate = nil }
            return (s.bytes > 0 || s.close != nil ? s.requestDrain() : nil, remainderWriter)
        }
        if let remainderWriter {
            var rest = frame.bytes
            rest.moveReaderIndex(forwardBy: sent)
            remainderWriter.writeRemainder(rest)
        }
        wake?.workArrived()
    }

    fileprivate enum QueueOutcome {
        case reserved(socket: CInt)
        case queued(wake: ConnectionWriter?)
        case refused
        case overflowed(wake: ConnectionWriter?)
    }

    /// Names the writer to wake, or the overflow's hard close, in `wakes`; false when refused.
    private func finish(_ outcome: QueueOutcome, wakes: inout WakeUps) -> Bool {
        switch outcome {
        case .reserved, .queued(wake: nil):
            return true
        case .queued(let wake?):
            wakes.wake(wake)
            return true
        case .refused:
            return false
        case .overflowed(let wake):
            if let wake { wakes.wake(wake) }
            onOverflow()
            wakes.closeAfterGrace(self)
            return false
        }
    }

    /// Lets frames sent on this thread (the connection's event loop) while nothing is queued
    /// go to the socket at once, through the writer, instead of being queued for a drain;
    /// false stops that. The connection's socket handler allows it only while nothing of the
    /// connection's waits anywhere else (no write in NIO, a writable socket) and withdraws it
    /// when that changes or the socket closes, on the same thread. A room relaying a
    /// drawer's frame on the loop that read it thus sends to each idle recipient on that loop
    /// with no queueing, wake-up or drain.
    func allowImmediateSends(to socket: CInt?) {
        let thread = pthread_self()
        state.withLock { s in
            s.immediate = s.finished ? nil : socket.map { Immediate(socket: $0, thread: thread) }
        }
    }

    /// How many frames went to the socket at once.
    var immediateSends: Int { state.withLock { $0.immediateSends } }

    func sendText(_ bytes: [UInt8]) { send(WireFrame(.text, payload: bytes)) }

    /// Asks the writer to close with `code` after `flush`ing what is queued (or dropping it).
    package func close(code: CloseCode, reason: String, flush: Bool = true) {
        let wake = state.withLock { s -> ConnectionWriter? in
            guard s.close == nil, !s.finished else { return nil }
            if !flush {
                s.frames.removeAll()
                s.bytes = 0
            }
            s.close = Close(code: code, reason: reason)
            return s.requestDrain()
        }
        wake?.workArrived()
    }

    /// The connection is gone: nothing more is queued or written.
    func finish() {
        state.withLock { s in
            s.finished = true
            s.immediate = nil
            s.frames.removeAll()
            s.bytes = 0
            s.writer = nil
        }
    }

    /// Closes the socket at once, without a close handshake (drain timeout).
    func abort() {
        finish()
        hardClose()
    }

    var isClosing: Bool { state.withLock { $0.finished || $0.close != nil } }

    /// Whether the peer's input is no longer handled: closing for anything but a restart
    /// (`Close.keepsReceiving`), or finished otherwise. After a restart's close the outbox
    /// is finished too (nothing more is written), but input is taken until the peer's close.
    var refusesInput: Bool { state.withLock { $0.close.map { !$0.keepsReceiving } ?? $0.finished } }

    var queuedBytes: Int { state.withLock { $0.bytes } }

    /// Moves everything queued into `frames` (which the writer passes in empty and keeps,
    /// so the two arrays swap back and forth and a drain allocates nothing), and returns the
    /// close to send after them, if any. False when there is nothing to do. Only the writer
    /// calls this; after a close, the outbox is finished.
    func take(into frames: inout [WireFrame], close: inout Close?) -> Bool {
        state.withLock { s in
            s.drainRequested = false
            guard !s.finished, !s.frames.isEmpty || s.close != nil else { return false }
            swap(&frames, &s.frames)
            s.bytes = 0
            close = s.close
            if s.close != nil {
                s.finished = true
                s.immediate = nil
                s.writer = nil
            }
            return true
        }
    }

    /// Gives an overflowed client's socket `overflowCloseGrace` to take the 4008 close.
    /// The caller holds no lock.
    func scheduleHardClose() {
        LockAudit.systemCall("schedules a hard close")
        guard let eventLoop else { return hardClose() }
        let hardClose = self.hardClose
        eventLoop.scheduleTask(in: Self.overflowCloseGrace) { hardClose() }
    }
}

extension Outbox.State {
    /// Queues a frame, or on overflow drops the queue and asks for the 4008 close.
    fileprivate mutating func queue(_ frame: WireFrame, limit: Int) -> Outbox.QueueOutcome {
        guard close == nil, !finished else { return .refused }
        guard bytes + frame.bytes.readableBytes <= limit else {
            frames.removeAll()
            bytes = 0
            close = Outbox.Close(code: .tooSlowToRead, reason: "too slow to read: reconnect with your token")
            return .overflowed(wake: requestDrain())
        }
        frames.append(frame)
        bytes += frame.bytes.readableBytes
        return .queued(wake: requestDrain())
    }

    /// Marks a drain as requested; returns the writer to wake if this is the first request.
    fileprivate mutating func requestDrain() -> ConnectionWriter? {
        guard !drainRequested, !finished, let writer else { return nil }
        drainRequested = true
        return writer
    }
}
