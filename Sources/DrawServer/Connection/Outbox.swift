import DrawProtocol
import NIOCore

/// The address of one WebSocket connection's output, for rooms, the lobby and timers on
/// any thread.
///
/// The output itself (`ConnectionOutput`: the queue, the close, the socket's writes) is
/// owned by the connection's event loop; this handle holds it loop-bound, so only that loop
/// reaches it. From the loop, a frame is queued (or written at once) directly; from any
/// other thread it is handed to the loop (`LoopDelivery`). Rooms never wait on a client's
/// socket either way: under a room's lock, frames are only queued or handed off
/// (`WakeUps.deliver`), and what needs a system call happens once the lock is released.
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

    /// How long a client that overflowed its queue has to read the 4008 close before its
    /// socket is closed outright.
    static let overflowCloseGrace = TimeAmount.seconds(1)

    /// The connection's event loop's delivery.
    let delivery: LoopDelivery
    private let bound: NIOLoopBound<ConnectionOutput>

    /// Made on the connection's event loop.
    /// - Parameters:
    ///   - limit: the most bytes that may wait in the queue.
    ///   - maxFrameSize: the largest frame merging queued drawing frames may make.
    ///   - delivery: the event loop's delivery (one per loop, shared by its connections).
    ///   - hardClose: closes the socket without a handshake, for a client that stopped reading.
    ///   - onOverflow: counts an overflow (metrics).
    package init(
        limit: Int, maxFrameSize: Int = 65_536, delivery: LoopDelivery,
        hardClose: @escaping @Sendable () -> Void, onOverflow: @escaping @Sendable () -> Void = {}
    ) {
        self.delivery = delivery
        let output = ConnectionOutput(limit: limit, maxFrameSize: maxFrameSize, delivery: delivery, hardClose: hardClose, onOverflow: onOverflow)
        self.bound = NIOLoopBound(output, eventLoop: delivery.eventLoop)
    }

    /// An outbox with a delivery of its own, on `eventLoop` (tests).
    package convenience init(limit: Int, eventLoop: any EventLoop, hardClose: @escaping @Sendable () -> Void) {
        self.init(limit: limit, delivery: LoopDelivery(eventLoop: eventLoop), hardClose: hardClose)
    }

    var eventLoop: any EventLoop { delivery.eventLoop }

    /// The output; on the connection's event loop only.
    var output: ConnectionOutput { bound.value }

    /// Queues a frame, or sends it at once when it overtakes nothing; from another thread,
    /// hands it to the connection's loop. False when the connection was found closing. The
    /// caller holds no lock: this may write to the socket or wake the connection's loop.
    @discardableResult
    func send(_ frame: WireFrame) -> Bool {
        var wakes = WakeUps()
        let refused: Bool
        if delivery.isCurrent {
            delivery.acceptHandedOff(into: &wakes)
            refused = !wakes.accept(frame, by: self, atOnce: true, on: delivery)
        } else {
            wakes.deliver(frame, to: self)
            wakes.handOff()
            refused = false
        }
        wakes.run()
        return !refused
    }

    func sendText(_ bytes: [UInt8]) { send(WireFrame(.text, payload: bytes)) }

    /// Asks for the close handshake with `code` after what is queued (`flush`) or instead
    /// of it. From any thread; the caller holds no lock.
    package func close(code: CloseCode, reason: String, flush: Bool = true) {
        let close = Close(code: code, reason: reason)
        onLoop { outbox in
            let output = outbox.output
            if output.requestClose(close, flush: flush) { outbox.delivery.list(output) }
        }
    }

    /// The connection is gone: nothing more is queued or written.
    func finish() {
        onLoop { $0.output.finish() }
    }

    /// Closes the socket at once, without a close handshake (the drain's timeout).
    func abort() {
        onLoop { $0.output.abort() }
    }

    /// Runs `body` on the connection's event loop: now if this is it, else handed to it.
    /// Ordered after frames handed off before (`LoopDelivery.handOff` queues its task first).
    private func onLoop(_ body: @escaping @Sendable (Outbox) -> Void) {
        if delivery.isCurrent {
            body(self)
        } else {
            LockAudit.systemCall("wakes an event loop")
            delivery.eventLoop.execute { body(self) }
        }
    }

    // On the connection's event loop only:

    var isClosing: Bool { output.isClosing }
    var refusesInput: Bool { output.refusesInput }
    var queuedBytes: Int { output.queuedBytes }
    /// How many times frames went to the socket at once.
    var immediateSends: Int { output.immediateSends }

    /// Moves what is queued into `frames` and returns the close after it (tests that read
    /// what a connection was sent, with no sink).
    func take(into frames: inout [WireFrame], close: inout Close?) -> Bool {
        output.take(into: &frames, close: &close)
    }

    /// The connection's sink is in place; what was queued before goes out.
    package func attach(_ sink: any ConnectionSink) { output.attach(sink) }
}
