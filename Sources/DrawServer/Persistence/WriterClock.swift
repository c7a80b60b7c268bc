import Dispatch
import NIOPosix
import Synchronization

/// Where the persistence writer's deadlines take their time from: how long since it
/// started (fault durations, when to retry a held batch, the patience before exit), how it
/// waits between retries, and how long a commit waits for the idle thread to start it
/// (`IdleCommitThread`). The process's monotonic clock by default; a test hands in a
/// `ManualServerClock` and reaches a ten-minute deadline by advancing it. (The batching
/// cadence, `Configuration.interval`, stays on the task's own sleep: it is not a deadline
/// and must end the moment a batch is due.)
package struct WriterClock: Sendable {
    /// Time since the writer started.
    let elapsed: @Sendable () -> Duration
    /// Runs `body` once `delay` has passed, on a thread that must not be blocked (it only
    /// hands a result on). Never cancelled: whoever waits decides whether it still cares.
    let wake: @Sendable (_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> Void

    /// Runs `body` once `delay` has passed unless the returned timer is cancelled first;
    /// a cancelled timer is gone at once (a deadline checked many times a second, such
    /// as the PostgreSQL store's stalled-commit watchdog, leaves nothing pending).
    let schedule: @Sendable (_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> WriterTimer

    /// Waits `delay`, even when the calling task was cancelled: the writer's task is
    /// cancelled when it stops, yet the retries before exit must still wait between tries.
    func sleep(_ delay: Duration) async {
        await withCheckedContinuation { continuation in
            wake(delay) { continuation.resume() }
        }
    }

    static func monotonic() -> WriterClock {
        let origin = ContinuousClock.now
        return WriterClock(
            elapsed: { ContinuousClock.now - origin },
            wake: { delay, body in
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, delay.nanoseconds))), execute: body)
            },
            schedule: { delay, body in
                // A timer source, not `asyncAfter`: a cancelled source leaves the queue's
                // timer list at once, a cancelled work item only when its deadline passes.
                let timer = DispatchTimer(DispatchSource.makeTimerSource(queue: .global()))
                timer.source.schedule(deadline: .now() + .nanoseconds(Int(max(0, delay.nanoseconds))))
                timer.source.setEventHandler {
                    timer.source.cancel()
                    body()
                }
                timer.source.resume()
                return WriterTimer { timer.source.cancel() }
            }
        )
    }

    static func manual(_ clock: ManualServerClock) -> WriterClock {
        WriterClock(
            elapsed: { clock.now },
            wake: { delay, body in clock.schedule(after: delay, on: MultiThreadedEventLoopGroup.singleton.any(), body) },
            schedule: { delay, body in
                // The virtual clock keeps its timers until they are due; a cancelled one
                // then does nothing.
                let cancelled = CancelFlag()
                clock.schedule(after: delay, on: MultiThreadedEventLoopGroup.singleton.any()) {
                    if !cancelled.isSet { body() }
                }
                return WriterTimer { cancelled.set() }
            }
        )
    }
}

/// A `WriterClock.schedule` deadline; `cancel()` before it passes and its body never runs.
struct WriterTimer: Sendable {
    let cancel: @Sendable () -> Void
}

/// Set once by a cancel, read by the timer it calls off.
private final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A Dispatch timer source, which may be cancelled from any thread.
private final class DispatchTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
    init(_ source: any DispatchSourceTimer) { self.source = source }
}

extension WriterClock {
    /// Waits `delay` on this clock, or less when the task is cancelled meanwhile.
    func sleepUnlessCancelled(_ delay: Duration) async {
        let sleep = CancellableSleep()
        await withTaskCancellationHandler {
            await withCheckedContinuation { sleep.start($0, after: delay, on: self) }
        } onCancel: {
            sleep.end()
        }
    }
}

/// One `sleepUnlessCancelled`: ended by its timer or by a cancel, whichever comes first
/// (a cancel may come before the sleep has even started).
private final class CancellableSleep: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var timer: WriterTimer?
        var ended = false
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<Void, Never>, after delay: Duration, on clock: WriterClock) {
        let endedAlready = state.withLock { s -> Bool in
            if !s.ended { s.continuation = continuation }
            return s.ended
        }
        if endedAlready { return continuation.resume() }
        let timer = clock.schedule(delay) { self.end() }
        let cancelTimer = state.withLock { s -> Bool in
            if !s.ended { s.timer = timer }
            return s.ended
        }
        if cancelTimer { timer.cancel() }
    }

    func end() {
        let (continuation, timer) = state.withLock { s -> (CheckedContinuation<Void, Never>?, WriterTimer?) in
            guard !s.ended else { return (nil, nil) }
            s.ended = true
            defer { (s.continuation, s.timer) = (nil, nil) }
            return (s.continuation, s.timer)
        }
        timer?.cancel()
        continuation?.resume()
    }
}
