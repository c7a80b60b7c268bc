import DrawClient
import Synchronization
import Testing

/// Reads a client's events in the background so a test can wait for the next one that
/// matches, with a deadline (and see what came before when it fails).
final class Inbox: Sendable {
    private struct State {
        var items: [ClientEvent] = []
        var waiter: (id: Int, continuation: CheckedContinuation<ClientEvent?, Never>)?
        var nextID = 0
        var history: [ClientEvent] = []
    }

    private let state = Mutex(State())

    init(_ client: DrawClient) {
        let events = client.events
        Task { [self] in
            for await event in events { push(event) }
        }
    }

    var history: [ClientEvent] { state.withLock { $0.history } }

    /// The next event for which `match` gives a value, skipping the others.
    func next<T>(
        within seconds: Double = 15, sourceLocation: SourceLocation = #_sourceLocation,
        _ match: (ClientEvent) -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            guard let event = await pop(until: deadline) else { break }
            if let value = match(event) { return value }
        }
        Issue.record("no matching event within \(seconds) s; last: \(history.suffix(6))", sourceLocation: sourceLocation)
        throw InboxTimeout()
    }

    /// The next server message of that type.
    func message(_ type: String, within seconds: Double = 15, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ServerMessage {
        try await next(within: seconds, sourceLocation: sourceLocation) { event in
            guard case .message(let message, _) = event, message.type == type else { return nil }
            return message
        }
    }

    private func push(_ event: ClientEvent) {
        let waiter = state.withLock { s -> CheckedContinuation<ClientEvent?, Never>? in
            guard let waiter = s.waiter else {
                s.items.append(event)
                return nil
            }
            s.waiter = nil
            s.history.append(event)
            return waiter.continuation
        }
        waiter?.resume(returning: event)
    }

    private func pop(until deadline: ContinuousClock.Instant) async -> ClientEvent? {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { s -> (ready: ClientEvent?, id: Int?) in
                if !s.items.isEmpty {
                    let item = s.items.removeFirst()
                    s.history.append(item)
                    return (item, nil)
                }
                s.nextID += 1
                s.waiter = (s.nextID, continuation)
                return (nil, s.nextID)
            }
            guard let id = outcome.id else {
                continuation.resume(returning: outcome.ready)
                return
            }
            Task {
                try? await Task.sleep(until: deadline)
                let expired = self.state.withLock { s -> CheckedContinuation<ClientEvent?, Never>? in
                    guard let waiter = s.waiter, waiter.id == id else { return nil }
                    s.waiter = nil
                    return waiter.continuation
                }
                expired?.resume(returning: nil)
            }
        }
    }
}

struct InboxTimeout: Error {}

/// A clock that moves only when the test says so.
final class VirtualClock: Sendable {
    private struct State {
        var now: Duration = .zero
        var sleepers: [(until: Duration, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var clock: ClientClock {
        ClientClock(now: { self.now }, sleep: { delay in await self.sleep(delay) })
    }

    var now: Duration { state.withLock { $0.now } }
    var sleeping: Int { state.withLock { $0.sleepers.count } }

    func sleep(_ delay: Duration) async {
        await withCheckedContinuation { continuation in
            let due = state.withLock { s -> Bool in
                let until = s.now + delay
                if until <= s.now { return true }
                s.sleepers.append((until, continuation))
                return false
            }
            if due { continuation.resume() }
        }
    }

    /// Moves time forward and wakes every sleeper now due.
    func advance(by step: Duration) {
        let woken = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.now += step
            let now = s.now
            let due = s.sleepers.filter { $0.until <= now }.map(\.continuation)
            s.sleepers.removeAll { $0.until <= now }
            return due
        }
        for continuation in woken { continuation.resume() }
    }
}
