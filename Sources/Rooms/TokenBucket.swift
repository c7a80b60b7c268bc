import DrawProtocol

/// A token bucket: `capacity` tokens, refilled continuously at `capacity` per `periodMs`.
///
/// Used for every rate limit (chat, drawing frames and points, joins, room creations).
/// Time comes in with each call, so limits are tested without waiting.
public struct TokenBucket: Sendable, Hashable {
    public let capacity: Double
    public let periodMs: Double
    private var tokens: Double
    private var updated: Timestamp

    public init(_ rate: Rate, now: Timestamp) {
        capacity = Double(max(1, rate.count))
        periodMs = Double(max(1, rate.periodMs))
        tokens = capacity
        updated = now
    }

    /// Takes `cost` tokens if there are enough; false (and nothing taken) otherwise.
    public mutating func take(_ cost: Double = 1, now: Timestamp) -> Bool {
        refill(now)
        guard tokens >= cost else { return false }
        tokens -= cost
        return true
    }

    /// Takes `cost` even into debt: later requests wait until the debt is paid back.
    /// For costs only known after the work was done (points in a drawing frame). The debt
    /// has no floor, so whatever was done is paid for in full: a caller that bounds each
    /// cost (a frame's size bounds its points) bounds the debt.
    public mutating func charge(_ cost: Double, now: Timestamp) {
        refill(now)
        tokens -= cost
    }

    /// True when at least one token is available.
    public mutating func hasTokens(now: Timestamp) -> Bool {
        refill(now)
        return tokens >= 1
    }

    /// Milliseconds until `cost` tokens are available (0 when they are now), for holding a
    /// request back instead of refusing it. A cost above the capacity never fits; it waits
    /// for a full bucket.
    public func waitMs(for cost: Double = 1, now: Timestamp) -> Int {
        let available = min(capacity, tokens + Double(max(0, now - updated)) * capacity / periodMs)
        let needed = min(cost, capacity) - available
        guard needed > 0 else { return 0 }
        return Int((needed * periodMs / capacity).rounded(.up))
    }

    private mutating func refill(_ now: Timestamp) {
        let elapsed = Double(max(0, now - updated))
        tokens = min(capacity, tokens + elapsed * capacity / periodMs)
        updated = now
    }
}

/// "N per period", written `N/Ts` (`5/3s`, `120/1s`, `10/60s`) or `N/Tms`.
public struct Rate: Sendable, Hashable, CustomStringConvertible {
    public var count: Int
    public var periodMs: Int

    public init(_ count: Int, perMs periodMs: Int) {
        self.count = count
        self.periodMs = periodMs
    }

    public init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let count = Int(parts[0]), count > 0 else { return nil }
        // The period is a duration as every flag writes one (`3s`, `500ms`, `1m`); it needs a unit.
        guard Double(parts[1]) == nil, let period = DurationText.parse(String(parts[1]), bareUnit: .seconds) else { return nil }
        let milliseconds = DurationText.milliseconds(period)
        guard milliseconds > 0 else { return nil }
        self.init(count, perMs: milliseconds)
    }

    public var description: String {
        periodMs % 1000 == 0 ? "\(count)/\(periodMs / 1000)s" : "\(count)/\(periodMs)ms"
    }
}
