import Foundation

/// Runs blocking work (a socket read, a poll, a child's pipe) on a thread of its own and
/// waits for it without holding a thread.
///
/// Not on the test's own task, nor on Dispatch's global queue: on Linux both draw on the
/// same few worker threads (about one per core), and a few blocked there at once stall
/// every in-process server of the suite (a CI run lost 30 tests to "no welcome within
/// 10 s" that way).
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// `offThePool` for work that throws.
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
