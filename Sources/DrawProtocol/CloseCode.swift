/// A WebSocket close code: RFC 6455 section 7.4's, and the protocol's own (4000 and up,
/// docs/PROTOCOL.md section 2).
public struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The session ended on purpose.
    public static let normalClosure = CloseCode(rawValue: 1000)
    /// Sent when the heartbeat gives up on a silent peer.
    public static let goingAway = CloseCode(rawValue: 1001)
    public static let protocolError = CloseCode(rawValue: 1002)
    /// Never sent: the connection dropped without a close frame (RFC 6455 section 7.1.5).
    public static let abnormalClosure = CloseCode(rawValue: 1006)
    /// Text that is not UTF-8, or deflate data that does not inflate.
    public static let invalidData = CloseCode(rawValue: 1007)
    /// Sustained abuse.
    public static let policyViolation = CloseCode(rawValue: 1008)
    public static let messageTooBig = CloseCode(rawValue: 1009)
    public static let internalError = CloseCode(rawValue: 1011)
    /// The server is restarting: reconnect with your token.
    public static let serviceRestart = CloseCode(rawValue: 1012)
    /// A newer connection resumed with the same token.
    public static let replaced = CloseCode(rawValue: 4001)
    /// No `hello` in time.
    public static let noHello = CloseCode(rawValue: 4003)
    /// The outbound queue overflowed: the client did not read.
    public static let tooSlowToRead = CloseCode(rawValue: 4008)

    public var description: String { String(rawValue) }
}
