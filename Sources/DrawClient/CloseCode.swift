/// A WebSocket close code (RFC 6455 section 7.4, plus the server's own, protocol section 2).
public struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// We (or the server) ended the session on purpose.
    public static let normal = CloseCode(rawValue: 1000)
    public static let goingAway = CloseCode(rawValue: 1001)
    public static let protocolError = CloseCode(rawValue: 1002)
    /// No close frame: the connection dropped (or could not be read any more).
    public static let abnormal = CloseCode(rawValue: 1006)
    public static let invalidText = CloseCode(rawValue: 1007)
    /// Sustained abuse.
    public static let policy = CloseCode(rawValue: 1008)
    public static let tooBig = CloseCode(rawValue: 1009)
    public static let internalError = CloseCode(rawValue: 1011)
    /// The server is restarting: reconnect with the token.
    public static let serverRestart = CloseCode(rawValue: 1012)
    /// Another connection said hello with this token.
    public static let replaced = CloseCode(rawValue: 4001)
    /// No hello within 10 s.
    public static let helloTimeout = CloseCode(rawValue: 4003)
    /// The server's queue for this client overflowed: reconnect with the token.
    public static let tooSlow = CloseCode(rawValue: 4008)

    public var description: String { String(rawValue) }
}
