import DrawProtocol

/// A point on the server's monotonic clock, in milliseconds from an arbitrary origin.
///
/// The game core never reads a clock itself: every event carries the current time,
/// so tests drive time explicitly and a seeded game replays exactly.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var milliseconds: Int64
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }
    public static let zero = Timestamp(milliseconds: 0)

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: Timestamp, rhs: Int) -> Timestamp { Timestamp(milliseconds: lhs.milliseconds + Int64(rhs)) }
    /// Milliseconds from `rhs` to `lhs`.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Int { Int(lhs.milliseconds - rhs.milliseconds) }
    public var description: String { "\(milliseconds)ms" }
}
