import Foundation

/// Runs long synchronous work (a simulation of many games) on a thread of its own and
/// waits for it: the suite's other tests, many waiting on sockets with deadlines, share the
/// few threads Swift Testing runs on, and seconds of CPU work there would starve them.
func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.start()
    }
}
