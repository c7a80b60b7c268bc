import Dispatch

/// Where the persistence writer's deadlines take their time from: how long since it
/// started (fault durations, when to retry a held batch, the patience before exit) and how
/// it waits between retries. The process's monotonic clock by default; a test hands in a
/// `ManualServerClock` and reaches a ten-minute deadline by advancing it. (The batching
/// cadence, `Configuration.interval`, stays on the task's own sleep: it is not a deadline
/// and must end the moment a batch is due.)
struct WriterClock: Sendable {
    /// Time since the writer started.
    let elapsed: @Sendable () -> Duration
    /// Waits `delay`, even when the calling task was cancelled: the writer's task is
    /// cancelled when it stops, yet the retries before exit must still wait between tries.
    let sleep: @Sendable (_ delay: Duration) async -> Void

    static func monotonic() -> WriterClock {
        let origin = ContinuousClock.now
        return WriterClock(
            elapsed: { ContinuousClock.now - origin },
            sleep: { delay in
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, delay.nanoseconds)))) { continuation.resume() }
                }
            }
        )
    }

    static func manual(_ clock: ManualServerClock) -> WriterClock {
        WriterClock(elapsed: { clock.now }, sleep: { delay in await clock.sleep(for: delay) })
    }
}
