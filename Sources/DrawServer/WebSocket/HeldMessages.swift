import NIOCore

/// The messages a connection's service asked to be given again later (its budget is spent),
/// and everything read behind them, in order: the shaping of a connection's input.
///
/// While one message waits, reading goes on, so pings are still answered, until
/// `maxBytes` of messages wait; then the socket is not read until they are handled, and
/// TCP pushes back on the sender. A close or protocol failure read behind waiting messages
/// is kept until they are handled, so a burst followed by a close is handled whole.
struct HeldMessages {
    struct Configuration: Sendable, Equatable {
        /// Messages read but not yet handled, in bytes (with `overheadBytes` each), before
        /// reading stops: room for one maximum-size message, or a few hundred small frames.
        var maxBytes = 64 * 1024
    }

    /// What holding one message costs beyond its payload (its buffer and queue slot), so
    /// that many tiny frames cannot be held in bulk.
    static let overheadBytes = 64

    let configuration: Configuration
    /// Starts at one slot and grows when messages are held: NIO's default of 16 would cost
    /// every connection a few hundred bytes, and most never hold a message.
    private(set) var messages = CircularBuffer<WebSocketReceiver.Message>(initialCapacity: 1)
    private(set) var bytes = 0
    /// A close or failure read behind the waiting messages.
    private(set) var deferredAction: WebSocketReceiver.Action?

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    var isEmpty: Bool { messages.isEmpty }
    var count: Int { messages.count }

    /// Whether the socket may be read: not once `maxBytes` wait, nor behind a deferred close.
    var mayRead: Bool { bytes < configuration.maxBytes && deferredAction == nil }

    mutating func append(_ message: WebSocketReceiver.Message) {
        bytes += message.byteCount + Self.overheadBytes
        messages.append(message)
    }

    /// Keeps a close or failure until the waiting messages are handled.
    mutating func keep(_ action: WebSocketReceiver.Action) {
        deferredAction = action
    }

    var first: WebSocketReceiver.Message? { messages.first }

    mutating func removeFirst() {
        guard let message = messages.popFirst() else { return }
        bytes -= message.byteCount + Self.overheadBytes
    }

    /// Once every message is handled: the deferred action, if any, to perform now.
    mutating func takeDeferredAction() -> WebSocketReceiver.Action? {
        guard messages.isEmpty else { return nil }
        defer { deferredAction = nil }
        return deferredAction
    }

    /// The connection is closing: nothing waiting will be handled.
    mutating func removeAll() {
        messages.removeAll()
        bytes = 0
        deferredAction = nil
    }
}

extension WebSocketReceiver.Message {
    var byteCount: Int {
        switch self {
        case .text(let buffer), .binary(let buffer): buffer.readableBytes
        }
    }
}
