import Dispatch
import DrawProtocol
import NIOCore
import NIOPosix
import Rooms
import Synchronization

/// The shell's one clock: game time for the rooms (the game core's millisecond timestamps
/// and the rooms' timers on their event loops), and the same time for every other deadline
/// of the shell that is not a connection's: the persistence writer's (fault durations,
/// retries, the patience before exit, the idle commit thread's start patience), the
/// PostgreSQL store's (leases, the stalled-commit watchdog, the connection patience, the
/// directory's cadence) and the cluster bus's.
///
/// By default it reads the process's monotonic clock; its timers are the event loops' own,
/// and those off the loops are Dispatch's (the idle thread's start patience must expire on
/// time while the loops are busy, which is exactly when it does expire). A test hands in a
/// `ManualServerClock` instead: time then moves only when the test advances it, and a
/// room's turn, hints and bots, a writer's ten-minute fault or a lease's expiry play out
/// without waiting for real time. A connection's own deadlines (its heartbeat, when its
/// peer was last heard) read its event loop's time, `ServerClock.of(loop)`, so a test of one
/// connection on an `EmbeddedEventLoop` moves them with the loop's `advanceTime`.
package struct ServerClock: Sendable {
    /// Time since the clock's origin.
    private let read: @Sendable () -> Duration
    /// Time of a monotonic instant already read, such as when a frame arrived.
    private let elapsedAt: @Sendable (ContinuousClock.Instant) -> Duration
    /// Runs `body` on `loop` once `delay` has passed.
    private let wake: @Sendable (_ delay: Duration, _ loop: any EventLoop, _ body: @escaping @Sendable () -> Void) -> Void
    /// `wake`, cancellable: a cancelled timer leaves its loop at once, with what it holds.
    private let wakeCancellable: @Sendable (_ delay: Duration, _ loop: any EventLoop, _ body: @escaping @Sendable () -> Void) -> ClockTimer
    /// Runs `body` once `delay` has passed, on a thread that must not be blocked (it only
    /// hands a result on). Never cancelled: whoever waits decides whether it still cares.
    let wakeOffLoop: @Sendable (_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> Void
    /// Runs `body` once `delay` has passed unless the returned timer is cancelled first; a
    /// cancelled timer is gone at once (a deadline checked many times a second, such as the
    /// PostgreSQL store's stalled-commit watchdog, leaves nothing pending).
    let schedule: @Sendable (_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> ClockTimer

    /// The process's monotonic clock; timers are the event loops' own, or Dispatch's.
    init() {
        let origin = ContinuousClock.now
        read = { ContinuousClock.now - origin }
        elapsedAt = { $0 - origin }
        wake = { delay, loop, body in
            loop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) { body() }
        }
        wakeCancellable = Self.loopTimer
        wakeOffLoop = { delay, body in
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, delay.nanoseconds))), execute: body)
        }
        schedule = { delay, body in
            // A timer source, not `asyncAfter`: a cancelled source leaves the queue's timer
            // list at once, a cancelled work item only when its deadline passes.
            let timer = DispatchTimer(DispatchSource.makeTimerSource(queue: .global()))
            timer.source.schedule(deadline: .now() + .nanoseconds(Int(max(0, delay.nanoseconds))))
            timer.source.setEventHandler {
                timer.source.cancel()
                body()
            }
            timer.source.resume()
            return ClockTimer { timer.source.cancel() }
        }
    }

    /// Time that moves only when `manual` is advanced.
    init(_ manual: ManualServerClock) {
        read = { manual.now }
        // A frame arrives at the game time of its reading: the test's clock has no instants.
        elapsedAt = { _ in manual.now }
        wake = { delay, loop, body in manual.schedule(after: delay, on: loop, body) }
        wakeCancellable = { delay, loop, body in
            let cancelled = CancelFlag()
            manual.schedule(after: delay, on: loop) {
                if !cancelled.isSet { body() }
            }
            return ClockTimer { cancelled.set() }
        }
        wakeOffLoop = { delay, body in manual.schedule(after: delay, on: MultiThreadedEventLoopGroup.singleton.any(), body) }
        schedule = { delay, body in
            // The virtual clock keeps its timers until they are due; a cancelled one then
            // does nothing.
            let cancelled = CancelFlag()
            manual.schedule(after: delay, on: MultiThreadedEventLoopGroup.singleton.any()) {
                if !cancelled.isSet { body() }
            }
            return ClockTimer { cancelled.set() }
        }
    }

    /// `loop`'s own time: real on a running loop, virtual on an `EmbeddedEventLoop`. Its
    /// timers are `loop`'s (all of them: a connection's clock has no work off its loop).
    /// Each call makes a new clock; the server's connections share their loop's
    /// (`LoopDelivery.clock`).
    static func of(_ loop: any EventLoop) -> ServerClock {
        ServerClock(loop: loop)
    }

    private init(loop: any EventLoop) {
        let origin = loop.now.uptimeNanoseconds
        let read: @Sendable () -> Duration = { .nanoseconds(Int64(bitPattern: loop.now.uptimeNanoseconds &- origin)) }
        self.read = read
        // Instants are the process's clock, not the loop's: a connection's clock is never asked.
        elapsedAt = { _ in read() }
        wake = { delay, target, body in
            target.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) { body() }
        }
        wakeCancellable = Self.loopTimer
        wakeOffLoop = { delay, body in
            loop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) { body() }
        }
        schedule = { delay, body in
            let task = loop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) { body() }
            return ClockTimer { task.cancel() }
        }
    }

    /// `base` with other off-loop timers (a test counting them).
    init(
        _ base: ServerClock,
        wakeOffLoop: @escaping @Sendable (_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> Void,
        schedule: @escaping @Sendable (_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> ClockTimer
    ) {
        read = base.read
        elapsedAt = base.elapsedAt
        wake = base.wake
        wakeCancellable = base.wakeCancellable
        self.wakeOffLoop = wakeOffLoop
        self.schedule = schedule
    }

    package var now: Timestamp { Self.timestamp(read()) }

    /// Time since the clock's origin, for durations and deadlines.
    func elapsed() -> Duration { read() }

    /// The game time of an instant already read, such as when a frame arrived.
    func timestamp(of instant: ContinuousClock.Instant) -> Timestamp {
        Self.timestamp(elapsedAt(instant))
    }

    /// Runs `body` on `loop` once `delay` of game time has passed. The caller holds no lock.
    func run(after delay: Duration, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        LockAudit.systemCall("arms a timer")
        wake(delay, loop, body)
    }

    /// Runs `body` on `loop` once `delay` has passed unless the returned timer is cancelled
    /// first. Cancelled, it is gone from the loop at once (on the real clock), and with it
    /// whatever `body` holds: a deadline that usually does not fire, armed for every
    /// connection, would otherwise keep its memory until it passes.
    func timer(after delay: Duration, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) -> ClockTimer {
        LockAudit.systemCall("arms a timer")
        return wakeCancellable(delay, loop, body)
    }

    /// An event loop's own cancellable timer.
    private static let loopTimer: @Sendable (Duration, any EventLoop, @escaping @Sendable () -> Void) -> ClockTimer = { delay, loop, body in
        let task = loop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) { body() }
        return ClockTimer { task.cancel() }
    }

    /// Runs `body` on `loop` at `deadline` (at once when it has passed).
    func run(at deadline: Timestamp, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        run(after: .milliseconds(deadline.milliseconds) - read(), on: loop, body)
    }

    /// Waits `delay`, off the event loops, even when the calling task was cancelled: the
    /// writer's task is cancelled when it stops, yet its retries before exit must still
    /// wait between tries.
    func sleep(_ delay: Duration) async {
        await withCheckedContinuation { continuation in
            wakeOffLoop(delay) { continuation.resume() }
        }
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
