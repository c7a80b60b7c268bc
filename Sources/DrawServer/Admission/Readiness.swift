import Synchronization

/// Whether the server takes new players: `starting` while the database is loaded,
/// `draining` after SIGTERM. `/readyz` and WebSocket upgrades follow it; `/readyz` also
/// answers 503 while storage is failing.
final class Readiness: Sendable {
    enum State: UInt8, Sendable {
        case starting
        case ready
        case draining
    }

    private let value = Atomic<UInt8>(State.starting.rawValue)

    var state: State { State(rawValue: value.load(ordering: .acquiring)) ?? .starting }
    var isReady: Bool { state == .ready }

    func set(_ state: State) { value.store(state.rawValue, ordering: .releasing) }

    /// The `/readyz` answer: ready only while the lifecycle is `ready` and storage takes
    /// commits, so a balancer stops sending new players to a server that cannot store
    /// their games. WebSocket upgrades follow `isReady` alone: players of rooms already
    /// open still reconnect while storage fails.
    func answer(storageFault: StorageFault?, saturated: Bool = false) -> (ready: Bool, text: String) {
        switch state {
        case .starting: return (false, "starting")
        case .draining: return (false, "draining")
        case .ready:
            if let storageFault { return (false, "storage failing: \(storageFault.kind.reason)") }
            // A saturated node is up but should get no new players: the balancer sends them on.
            if saturated { return (false, "saturated") }
            return (true, "ready")
        }
    }
}
