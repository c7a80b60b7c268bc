import Dispatch
import NIOPosix

/// Where the persistence writer's deadlines take their time from: how long since it
/// started (fault durations, when to retry a held batch, the patience before exit), how it
/// waits between retries, and how long a commit waits for the idle thread to start it
/// (`IdleCommitThread`). The process's monotonic clock by default; a test hands in a
/// `ManualServerClock` and reaches a ten-minute deadline by advancing it. (The batching
/// cadence, `Configuration.interval`, stays on the task's own sleep: it is not a deadline
/// and must end the moment a batch is due.)
struct WriterClock: Sendable {
    /// Time since the writer started.
    let elapsed: @Sendable () -> Duration
    /// Runs `body` once `delay` has passed, on a thread that must not be blocked (it only
    /// hands a result on). Never cancelled: whoever waits decides whether it still cares.
    let wake: @Sendable (_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> Void

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
            }
        )
    }

    static func manual(_ clock: ManualServerClock) -> WriterClock {
        WriterClock(
            elapsed: { clock.now },
            wake: { delay, body in clock.schedule(after: delay, on: MultiThreadedEventLoopGroup.singleton.any(), body) }
        )
    }
}
