import DrawProtocol
import NIOCore
import NIOPosix
import Rooms
import Synchronization

/// The game time of the shell: turns a monotonic clock into the game core's millisecond
/// timestamps, and runs the rooms' timers on it.
///
/// By default it reads the process's monotonic clock and its timers are the event loops'.
/// A test hands in a `ManualServerClock` instead: game time then moves only when the test
/// advances it, and a room's turn, hints and bots play out without waiting for real time.
package struct ServerClock: Sendable {
    /// Game time since the clock's origin.
    private let read: @Sendable () -> Duration
    /// Game time of a monotonic instant already read, such as when a frame arrived.
    private let elapsedAt: @Sendable (ContinuousClock.Instant) -> Duration
    /// Runs `body` on `loop` once `delay` of game time has passed.
    private let wake: @Sendable (_ delay: Duration, _ loop: any EventLoop, _ body: @escaping @Sendable () -> Void) -> Void
    /// The persistence writer's deadlines on the same time. (Its monotonic timers are
    /// Dispatch's, not an event loop's: the idle thread's start patience must expire on
    /// time while the loops are busy, which is exactly when it does expire.)
    let writerClock: WriterClock

    /// The process's monotonic clock; timers are the event loops' own.
    init() {
        writerClock = .monotonic()
        let origin = ContinuousClock.now
        read = { ContinuousClock.now - origin }
        elapsedAt = { $0 - origin }
        wake = { delay, loop, body in
            loop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) { body() }
        }
    }

    /// Game time that moves only when `manual` is advanced.
    init(_ manual: ManualServerClock) {
        writerClock = .manual(manual)
        read = { manual.now }
        // A frame arrives at the game time of its reading: the test's clock has no instants.
        elapsedAt = { _ in manual.now }
        wake = { delay, loop, body in manual.schedule(after: delay, on: loop, body) }
    }

    package var now: Timestamp { Self.timestamp(read()) }

    /// The game time of an instant already read, such as when a frame arrived.
    func timestamp(of instant: ContinuousClock.Instant) -> Timestamp {
        Self.timestamp(elapsedAt(instant))
    }

    /// Runs `body` on `loop` once `delay` of game time has passed.
    func run(after delay: Duration, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        wake(delay, loop, body)
    }

    /// Runs `body` on `loop` at `deadline` (at once when it has passed).
    func run(at deadline: Timestamp, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        wake(.milliseconds(deadline.milliseconds) - read(), loop, body)
    }

    private static func timestamp(_ elapsed: Duration) -> Timestamp {
        Timestamp(milliseconds: elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// Virtual game time for tests: starts at zero and moves only through `advance(by:)`,
/// which runs every timer that came due, in the order of its deadline, on its event loop.
/// Connections' budgets refill in game time too: a test that spends one must advance it.
final class ManualServerClock: Sendable {
    private struct Timer {
        let due: Duration
        let order: Int
        let loop: any EventLoop
        let body: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var timers: [Timer] = []
        var armed = 0
    }

    private let state = Mutex(State())

    init() {}

    var now: Duration { state.withLock { $0.now } }

    /// Timers not yet run.
    var pending: Int { state.withLock { $0.timers.count } }

    /// When the earliest pending timer is due, if any.
    var nextDue: Duration? { state.withLock { $0.timers.map(\.due).min() } }

    func schedule(after delay: Duration, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            guard delay > .zero else { return true }
            s.armed += 1
            s.timers.append(Timer(due: s.now + delay, order: s.armed, loop: loop, body: body))
            return false
        }
        if runNow { loop.execute(body) }
    }

    /// Suspends until game time has moved on by `delay` (at once when it is not positive).
    func sleep(for delay: Duration) async {
        await withCheckedContinuation { continuation in
            schedule(after: delay, on: MultiThreadedEventLoopGroup.singleton.any()) { continuation.resume() }
        }
    }

    /// Moves game time on by `step` and runs the timers now due.
    func advance(by step: Duration) {
        let due = state.withLock { s -> [Timer] in
            s.now += step
            let now = s.now
            let due = s.timers.filter { $0.due <= now }.sorted { ($0.due, $0.order) < ($1.due, $1.order) }
            s.timers.removeAll { $0.due <= now }
            return due
        }
        for timer in due { timer.loop.execute(timer.body) }
    }
}
