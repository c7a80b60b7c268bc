import DrawProtocol

/// When to (re)connect, as a pure state machine: events and the current time in, actions
/// out. Time is a `Duration` since an origin the owner picks, so tests run it on virtual
/// time; jitter comes from a seeded generator held in the value.
public struct ReconnectPolicy: Sendable, Hashable {
    public struct Configuration: Sendable, Hashable {
        /// The wait before the first retry.
        public var initialDelay: Duration = .milliseconds(250)
        /// Each consecutive failure multiplies the wait by this.
        public var multiplier: Double = 2
        /// The longest wait between attempts.
        public var maxDelay: Duration = .seconds(30)
        /// Each wait is scaled by a random factor in `1 - jitter ... 1 + jitter`, so clients
        /// cut off together (a server restart) do not all come back at the same instant.
        public var jitter: Double = 0.2
        /// A connection that stayed open this long resets the backoff when it drops.
        public var stableAfter: Duration = .seconds(5)
        /// Consecutive failed attempts before giving up; nil retries forever.
        public var maxAttempts: Int?
        /// Close codes after which reconnecting cannot help (or would fight another
        /// connection): replaced by a newer connection, policy, too big, protocol errors.
        public var terminalCodes: Set<CloseCode> = [
            .normalClosure, .protocolError, .invalidData, .policyViolation, .messageTooBig, .replaced,
        ]

        public init() {}
    }

    public enum Phase: Sendable, Hashable {
        case idle
        case connecting
        case connected(since: Duration)
        case waiting(until: Duration)
        case stopped(StopReason)
    }

    public enum Action: Sendable, Hashable {
        /// Open a new connection (`attempt` counts from 1 since the last stable one).
        case connect(attempt: Int)
        /// Say `hello` (with the token, if any) on the connection that just opened.
        case sayHello
        /// Wait `delay`, then report `timerFired`.
        case wait(Duration)
        /// Close the open connection with this code.
        case close(CloseCode)
        /// The client is done; no action will follow.
        case stop(StopReason)
    }

    public enum StopReason: Sendable, Hashable {
        /// `stop()` was called.
        case requested
        /// The server closed with a code in `terminalCodes`.
        case closed(CloseCode)
        /// `maxAttempts` consecutive attempts failed.
        case gaveUp(attempts: Int)
    }

    public let configuration: Configuration
    public private(set) var phase: Phase = .idle
    /// Consecutive failures since the last stable connection.
    public private(set) var failures = 0
    private var random: UInt64

    public init(configuration: Configuration = Configuration(), seed: UInt64 = 0x5EED) {
        self.configuration = configuration
        random = seed
    }

    /// The first connection.
    public mutating func start(now: Duration) -> [Action] {
        guard phase == .idle else { return [] }
        phase = .connecting
        return [.connect(attempt: 1)]
    }

    /// The connection opened: say hello on it.
    public mutating func opened(now: Duration) -> [Action] {
        guard phase == .connecting else { return [] }
        phase = .connected(since: now)
        return [.sayHello]
    }

    /// The connection could not be opened.
    public mutating func connectFailed(now: Duration) -> [Action] {
        guard phase == .connecting else { return [] }
        failures += 1
        return retry(now: now)
    }

    /// The open connection closed (the server's code, or `abnormal` for a drop).
    public mutating func closed(_ code: CloseCode, now: Duration) -> [Action] {
        guard case .connected(let since) = phase else { return [] }
        if configuration.terminalCodes.contains(code) {
            phase = .stopped(.closed(code))
            return [.stop(.closed(code))]
        }
        // A connection that held for a while is a fresh start; one that dropped at once
        // counts as another failure so a server that keeps cutting us off is backed off.
        failures = now - since >= configuration.stableAfter ? 1 : failures + 1
        return retry(now: now)
    }

    /// A `wait` elapsed.
    public mutating func timerFired(now: Duration) -> [Action] {
        guard case .waiting(let until) = phase, now >= until else { return [] }
        phase = .connecting
        return [.connect(attempt: failures + 1)]
    }

    /// Ends the client: closes the connection if one is open.
    public mutating func stop() -> [Action] {
        switch phase {
        case .stopped:
            return []
        case .connected:
            phase = .stopped(.requested)
            return [.close(.normalClosure), .stop(.requested)]
        case .idle, .connecting, .waiting:
            phase = .stopped(.requested)
            return [.stop(.requested)]
        }
    }

    /// The wait before the next attempt after `failures` consecutive failures (>= 1),
    /// before jitter.
    public func baseDelay(afterFailures failures: Int) -> Duration {
        let exponent = Double(max(0, failures - 1))
        let initial = Self.seconds(configuration.initialDelay)
        let capped = min(Self.seconds(configuration.maxDelay), initial * power(configuration.multiplier, exponent))
        return .nanoseconds(Int64(capped * 1e9))
    }

    private mutating func retry(now: Duration) -> [Action] {
        if let limit = configuration.maxAttempts, failures >= limit {
            phase = .stopped(.gaveUp(attempts: failures))
            return [.stop(.gaveUp(attempts: failures))]
        }
        let base = Self.seconds(baseDelay(afterFailures: failures))
        let factor = 1 + configuration.jitter * (2 * nextUnit() - 1)
        let delay = Duration.nanoseconds(Int64(max(0, base * factor) * 1e9))
        phase = .waiting(until: now + delay)
        return [.wait(delay)]
    }

    /// A uniform value in [0, 1) from SplitMix64.
    private mutating func nextUnit() -> Double {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// `base` to the power `exponent`, without Foundation, saturating instead of overflowing.
    private func power(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var step = 0.0
        while step < exponent, result < 1e9 {
            result *= base
            step += 1
        }
        return result
    }
}
