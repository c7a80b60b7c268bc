import DrawProtocol

/// One WebSocket message, as the protocol uses them: JSON text or drawing bytes.
public enum WireFrame: Sendable, Hashable {
    case text(String)
    case binary([UInt8])
}

/// What a connection delivers, in order; `closed` is always the last.
public enum TransportEvent: Sendable, Hashable {
    case frame(WireFrame)
    case closed(CloseCode)
}

/// Opens connections to a drawserver: a WebSocket, or an in-memory pipe.
public protocol Transport: Sendable {
    /// Opens one connection; throws when it cannot be opened (the caller may retry).
    func connect() async throws -> any TransportConnection
}

/// One open connection.
public protocol TransportConnection: Sendable {
    /// Everything received, in order, ending with one `closed` (then the stream finishes).
    var events: AsyncStream<TransportEvent> { get }
    /// Queues a frame; throws `TransportError.closed` once the connection is closed.
    func send(_ frame: WireFrame) throws(TransportError)
    /// Starts a clean close; `events` ends with `closed` once it is done.
    func close(_ code: CloseCode)
}

public enum TransportError: Error, Sendable, Hashable {
    /// The connection is closed (or closing): nothing more can be sent.
    case closed
    /// The connection could not be opened.
    case connectFailed(String)
}
