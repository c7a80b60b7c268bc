/// A WebSocket close code: RFC 6455 section 7.4's, and the protocol's own (4000 and up,
/// docs/PROTOCOL.md section 2).
struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    var rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    static let normalClosure = CloseCode(rawValue: 1000)
    /// Sent when the heartbeat gives up on a silent peer.
    static let goingAway = CloseCode(rawValue: 1001)
    static let protocolError = CloseCode(rawValue: 1002)
    /// Text that is not UTF-8, or deflate data that does not inflate.
    static let invalidData = CloseCode(rawValue: 1007)
    /// Sustained abuse.
    static let policyViolation = CloseCode(rawValue: 1008)
    static let messageTooBig = CloseCode(rawValue: 1009)
    static let internalError = CloseCode(rawValue: 1011)
    /// The server is restarting: reconnect with your token.
    static let serviceRestart = CloseCode(rawValue: 1012)
    /// A newer connection resumed with the same token.
    static let replaced = CloseCode(rawValue: 4001)
    /// No `hello` in time.
    static let noHello = CloseCode(rawValue: 4003)
    /// The outbound queue overflowed: the client did not read.
    static let tooSlowToRead = CloseCode(rawValue: 4008)

    var description: String { String(rawValue) }
}
