import CoreMetrics
import NIOCore
import Synchronization

/// The outbound queue of one WebSocket connection, bounded in bytes.
///
/// Rooms and the session put frames in without ever waiting (a room must never wait on
/// a client's socket); a single writer task takes them out and writes them. A client
/// that cannot keep up overflows the queue: its frames are dropped, it is closed with
/// 4008, and if its socket does not drain the close within a second the channel is
/// closed outright.
final class Outbox: Sendable {
    enum Frame: Sendable {
        case text(ByteBuffer)
        case binary(ByteBuffer)
        /// A heartbeat ping with this payload.
        case ping(UInt64)

        var byteCount: Int {
            switch self {
            case .text(let buffer), .binary(let buffer): buffer.readableBytes
            case .ping: 8
            }
        }
    }

    struct Close: Sendable, Equatable {
        var code: UInt16
        var reason: String
    }

    /// What the writer takes in one go: everything queued, then possibly a close.
    struct Batch: Sendable {
        var frames: [Frame]
        var close: Close?
    }

    private struct State: Sendable {
        var frames: [Frame] = []
        var bytes = 0
        var close: Close?
        var finished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    let limit: Int
    private let state = Mutex(State())
    private let hardClose: @Sendable () -> Void
    private let onOverflow: @Sendable () -> Void

    /// - Parameters:
    ///   - limit: the most bytes that may wait in the queue.
    ///   - hardClose: closes the socket without a handshake, for a client that stopped reading.
    init(limit: Int, hardClose: @escaping @Sendable () -> Void, onOverflow: @escaping @Sendable () -> Void = {}) {
        self.limit = limit
        self.hardClose = hardClose
        self.onOverflow = onOverflow
    }

    /// Queues a frame; false when the connection is closing or the frame overflowed the queue.
    @discardableResult
    func send(_ frame: Frame) -> Bool {
        let (accepted, overflowed, waiter) = state.withLock { s -> (Bool, Bool, CheckedContinuation<Void, Never>?) in
            guard s.close == nil, !s.finished else { return (false, false, nil) }
            let waiter = s.waiter
            s.waiter = nil
            guard s.bytes + frame.byteCount <= limit else {
                s.frames.removeAll()
                s.bytes = 0
                s.close = Close(code: 4008, reason: "too slow to read: reconnect with your token")
                return (false, true, waiter)
            }
            s.frames.append(frame)
            s.bytes += frame.byteCount
            return (true, false, waiter)
        }
        waiter?.resume()
        if overflowed {
            onOverflow()
            scheduleHardClose()
        }
        return accepted
    }

    func sendText(_ bytes: [UInt8]) { send(.text(ByteBuffer(bytes: bytes))) }

    /// Asks the writer to close with `code` after `flush`ing what is queued (or dropping it).
    func close(code: UInt16, reason: String, flush: Bool = true) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { s in
            guard s.close == nil, !s.finished else { return nil }
            if !flush {
                s.frames.removeAll()
                s.bytes = 0
            }
            s.close = Close(code: code, reason: reason)
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// The connection is gone: the writer stops.
    func finish() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { s in
            s.finished = true
            s.frames.removeAll()
            s.bytes = 0
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// Closes the socket at once, without a close handshake (drain timeout).
    func abort() {
        finish()
        hardClose()
    }

    var isClosing: Bool { state.withLock { $0.finished || $0.close != nil } }

    var queuedBytes: Int { state.withLock { $0.bytes } }

    /// Waits for work; nil once finished. Only the writer task calls this.
    func next() async -> Batch? {
        while true {
            let ready: Batch?? = state.withLock { s in
                if s.finished { return .some(nil) }
                guard !s.frames.isEmpty || s.close != nil else { return nil }
                let batch = Batch(frames: s.frames, close: s.close)
                s.frames.removeAll(keepingCapacity: true)
                s.bytes = 0
                if s.close != nil { s.finished = true }
                return .some(batch)
            }
            if let ready { return ready }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { s in
                        if s.finished || !s.frames.isEmpty || s.close != nil { return true }
                        s.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                finish()
            }
        }
    }

    private func scheduleHardClose() {
        let hardClose = self.hardClose
        Task {
            try? await Task.sleep(for: .seconds(1))
            hardClose()
        }
    }
}
