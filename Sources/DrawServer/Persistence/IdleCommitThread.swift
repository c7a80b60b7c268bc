import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for the batch writer's commits, scheduled so that it only ever uses
/// time the event loops leave (`SCHED_IDLE` on Linux, `background` quality of service
/// elsewhere).
///
/// Why not GRDB's own queue at a low priority: a nice-10 thread still keeps the CPU for its
/// scheduling slice when an event loop wakes up (Linux's EEVDF protects a running slice),
/// so each commit held back the deliveries that arrived meanwhile and raised p99 at light
/// load (docs/benchmarks/journal-load-2026-11-23-24.md, "What changed, measured"). A `SCHED_IDLE` thread is preempted as soon as an event loop
/// wakes. Its commits run on this thread because GRDB's synchronous `write` runs on the
/// calling thread; the policy is set once and never changed back (an unprivileged thread
/// may not leave `SCHED_IDLE`), which is why the thread is not shared with anything else.
///
/// The drawing images (`/d/ID.png`, `.apng`) render on another instance, for the same
/// reason: a render never takes a core from a delivery.
final class IdleCommitThread: Sendable {
    private let state = Mutex<State>(State())
    private let wake = DispatchSemaphore(value: 0)
    /// The thread's name in `top -H` and profiles (at most 15 bytes on Linux).
    private let name: String
    /// Times `run(startWithin:)`'s patience; a test hands in virtual time.
    private let clock: ServerClock

    init(name: String = "ds-commits", clock: ServerClock = ServerClock()) {
        self.name = name
        self.clock = clock
    }

    private struct State: Sendable {
        var jobs: [@Sendable () -> Void] = []
        var started = false
        var stopping = false
        var isIdlePriority = false
    }

    /// Whether the thread runs at idle priority (false before its first job, or where the
    /// system refused).
    var isIdlePriority: Bool { state.withLock { $0.isIdlePriority } }

    /// Runs `body` on the thread and returns its result; starts the thread on first use.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        // Without a deadline the job is never taken back, so there is always a result.
        guard let result = try await run(startWithin: nil, body) else { throw CancellationError() }
        return result
    }

    /// Runs `body` on the thread if the thread gets to it within `startWithin`; otherwise
    /// takes it back (it will never run) and returns nil. A thread at idle priority that
    /// does not start within a few milliseconds has no idle core time to run on: once a
    /// commit has started it cannot be moved, and on a saturated core it could take seconds.
    func run<T: Sendable>(startWithin: Duration?, _ body: @escaping @Sendable () throws -> T) async throws -> T? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T?, any Error>) in
            let claim = JobClaim()
            let job: @Sendable () -> Void = {
                guard claim.start() else { return }
                continuation.resume(with: Result { try body() })
            }
            let (accepted, start) = state.withLock { s -> (Bool, Bool) in
                guard !s.stopping else { return (false, false) }
                s.jobs.append(job)
                defer { s.started = true }
                return (true, !s.started)
            }
            guard accepted else { return continuation.resume(throwing: CancellationError()) }
            if start { startThread() }
            wake.signal()
            if let startWithin {
                clock.wakeOffLoop(startWithin) {
                    if claim.takeBack() { continuation.resume(returning: nil) }
                }
            }
        }
    }

    /// Who has a job: the thread, which starts it, or its submitter, which takes it back.
    private final class JobClaim: Sendable {
        private let state = Atomic<UInt8>(0)  // 0 waiting, 1 started, 2 taken back
        func start() -> Bool { state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged }
        func takeBack() -> Bool { state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged }
    }

    /// Lets the thread finish the jobs it has and exit.
    func stop() {
        let running = state.withLock { s -> Bool in
            s.stopping = true
            return s.started
        }
        if running { wake.signal() }
    }

    private func startThread() {
        let thread = Thread { [self] in
            Self.nameCallingThread(name)
            let idle = Self.lowerCallingThreadToIdle()
            state.withLock { $0.isIdlePriority = idle }
            loop()
        }
        thread.start()
    }

    private func loop() {
        while true {
            wake.wait()
            let (jobs, stopping) = state.withLock { s -> ([@Sendable () -> Void], Bool) in
                var taken: [@Sendable () -> Void] = []
                swap(&taken, &s.jobs)
                return (taken, s.stopping)
            }
            for job in jobs { job() }
            if stopping, state.withLock({ $0.jobs.isEmpty }) { return }
        }
    }

    /// Names the calling thread for `top -H` and profiles (Linux threads start with their
    /// creator's name, here a Swift concurrency thread's). Best effort.
    private static func nameCallingThread(_ name: String) {
        #if os(Linux)
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        _ = name.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #endif
    }

    /// Puts the calling thread at the lowest scheduling class; returns whether it took.
    private static func lowerCallingThreadToIdle() -> Bool {
        #if os(Linux)
        var parameters = sched_param()
        parameters.sched_priority = 0
        // SCHED_IDLE is 5 in Linux's ABI; glibc only names it under _GNU_SOURCE.
        return sched_setscheduler(0, 5, &parameters) == 0
        #else
        Thread.current.qualityOfService = .background
        return false
        #endif
    }
}
