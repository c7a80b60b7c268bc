import DrawProtocol
import NIOCore
import Rooms
import Synchronization

extension ServerClock {
    /// Suspends until `delay` of game time has passed (its timer runs on `loop`), or until
    /// the task is cancelled: a periodic task on game time still stops the moment it is told.
    func sleep(for delay: Duration, on loop: any EventLoop) async {
        let wakeUp = WakeUp()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wakeUp.wait(continuation)
                run(at: now + DurationText.milliseconds(delay), on: loop) { wakeUp.fire() }
            }
        } onCancel: {
            wakeUp.fire()
        }
    }
}

/// One suspended task woken once, by whichever comes first: its timer or its cancellation
/// (which may come before the task even suspends).
private final class WakeUp: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var fired = false
    }

    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { s -> Bool in
            if s.fired { return true }
            s.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func fire() {
        let waiting = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.fired = true
            defer { s.continuation = nil }
            return s.continuation
        }
        waiting?.resume()
    }
}
