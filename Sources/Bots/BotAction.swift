import DrawProtocol
import Rooms

/// What a bot brain asks its driver to do. The driver (the server's `LiveRoom+Bots`, or a
/// client over a real socket) carries the actions out in order.
public enum BotAction: Sendable, Equatable {
    /// Send this message.
    case send(ClientMessage)
    /// Send these bytes as a binary drawing frame.
    case sendBinary([UInt8])
    /// Call `wake(now:)` at this time (replaces any earlier request; an early call is harmless).
    case wake(at: Timestamp)
}
