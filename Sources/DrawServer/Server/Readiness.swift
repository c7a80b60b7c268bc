import Synchronization

/// Whether the server takes new players: `starting` while the database is loaded,
/// `draining` after SIGTERM. `/readyz` and WebSocket upgrades follow it.
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
}
