import DrawProtocol

public enum DrawClientError: Error, Sendable, Hashable {
    /// No session right now (connecting, or between a disconnect and the resume).
    case notConnected
    /// The server refused the `hello` (e.g. `bad_name`); the connection stays open.
    case refused(ProtocolError)
    /// The client has stopped.
    case stopped(ReconnectPolicy.StopReason)
}
