/// The time source of a client: monotonic time since an origin, and a way to wait.
/// Injected so tests can drive reconnection on virtual time.
public struct ClientClock: Sendable {
    public var now: @Sendable () -> Duration
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The system's monotonic clock.
    public static var continuous: ClientClock {
        let clock = ContinuousClock()
        let origin = clock.now
        return ClientClock(now: { clock.now - origin }, sleep: { try await clock.sleep(for: $0) })
    }
}
