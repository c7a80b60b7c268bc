import Rooms

/// Turns the process's monotonic clock into the game core's millisecond timestamps.
struct ServerClock: Sendable {
    private let origin = ContinuousClock.now

    var now: Timestamp { timestamp(of: .now) }

    /// The game time of an instant already read, such as when a frame arrived.
    func timestamp(of instant: ContinuousClock.Instant) -> Timestamp {
        let elapsed = instant - origin
        return Timestamp(milliseconds: elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    /// The monotonic instant of a timestamp, for sleeping until a deadline.
    func instant(of timestamp: Timestamp) -> ContinuousClock.Instant {
        origin + .milliseconds(timestamp.milliseconds)
    }
}
