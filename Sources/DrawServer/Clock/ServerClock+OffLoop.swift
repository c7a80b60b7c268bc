import Dispatch
import Synchronization

// The off-loop side of `ServerClock`: cancellable timers and sleeps.

/// A `ServerClock.schedule` deadline; `cancel()` before it passes and its body never runs.
struct ClockTimer: Sendable {
    let cancel: @Sendable () -> Void
}

/// Set once by a cancel, read by the timer it calls off.
final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A Dispatch timer source, which may be cancelled from any thread.
final class DispatchTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
    init(_ source: any DispatchSourceTimer) { self.source = source }
}

extension ServerClock {
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
        var timer: ClockTimer?
        var ended = false
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<Void, Never>, after delay: Duration, on clock: ServerClock) {
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
        let (continuation, timer) = state.withLock { s -> (CheckedContinuation<Void, Never>?, ClockTimer?) in
            guard !s.ended else { return (nil, nil) }
            s.ended = true
            defer { (s.continuation, s.timer) = (nil, nil) }
            return (s.continuation, s.timer)
        }
        timer?.cancel()
        continuation?.resume()
    }
}
