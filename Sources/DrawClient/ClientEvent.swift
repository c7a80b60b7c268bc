import DrawProtocol

/// What a `DrawClient` reports, in order.
public enum ClientEvent: Sendable, Hashable {
    /// A connection attempt starts (1 for the first, counting up while attempts fail).
    case connecting(attempt: Int)
    /// A text message from the server, decoded, with its text as received.
    case message(ServerMessage, raw: String)
    /// A text message this version cannot decode (a newer server's message, or a known one
    /// without a field it needs), as received.
    case unrecognized(raw: String)
    /// A binary frame: drawing operations (decode with `DrawingDecoder`).
    case drawing([UInt8])
    /// The connection closed; `retryIn` is the wait before the next attempt, nil when the
    /// client stops (a `stopped` event follows).
    case disconnected(CloseCode, retryIn: Duration?)
    /// The client is done; the event stream ends after this.
    case stopped(ReconnectPolicy.StopReason)
}
