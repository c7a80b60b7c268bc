import Foundation
import GRDB
import ServerTestSupport
import Synchronization
import Testing
@testable import DrawServer

#if canImport(Glibc)
import Glibc
#endif

@Suite("The idle-priority commit thread")
struct IdleCommitThreadTests {
    struct Refused: Error {}

    @Test func runsJobsInOrderOnOneThreadAndReturnsTheirResults() async throws {
        let thread = IdleCommitThread()
        defer { thread.stop() }
        var results: [Int] = []
        var threads = Set<String>()
        for i in 0..<20 {
            let (value, name) = try await thread.run { (i * i, Self.threadName()) }
            results.append(value)
            threads.insert(name)
        }
        #expect(results == (0..<20).map { $0 * $0 })
        #expect(threads.count == 1)
        await #expect(throws: Refused.self) { try await thread.run { () throws -> Int in throw Refused() } }
        // A job that threw leaves the thread working.
        #expect(try await thread.run { 7 } == 7)
    }

    /// A job the thread does not start in time is taken back: the caller hears nil and the
    /// job never runs, even once the thread is free again. The patience is the writer's
    /// clock's, here virtual time: it runs out at 20 ms, not at 19.
    @Test func aJobNotStartedWithinItsPatienceIsTakenBackAndNeverRuns() async throws {
        let clock = ManualServerClock()
        let thread = IdleCommitThread(clock: ServerClock(clock))
        defer { thread.stop() }
        let release = DispatchSemaphore(value: 0)
        // Waits for the thread to be inside the first job, however long an idle-priority
        // thread waits for a core in a busy test run.
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let busy = Task { try await thread.run { starting.yield(); release.wait() } }
        for await _ in started { break }
        let ran = Flag()
        let late = Task { try await thread.run(startWithin: .milliseconds(20)) { ran.set() } }
        try await waitUntil { clock.pending == 1 }
        clock.advance(by: .milliseconds(19))
        #expect(clock.pending == 1, "19 ms on, its patience has not run out")
        clock.advance(by: .milliseconds(1))
        #expect(try await late.value == nil)
        release.signal()
        try await busy.value
        // Virtual time stands still now, so this patience cannot run out: the job starts.
        #expect(try await thread.run(startWithin: .milliseconds(20)) { 3 } == 3, "a free thread starts it")
        #expect(!ran.isSet, "the job taken back never ran")
    }

    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    #if os(Linux)
    @Test func itsJobsRunAtIdlePriorityOnLinux() async throws {
        let thread = IdleCommitThread()
        defer { thread.stop() }
        let policy = try await thread.run { sched_getscheduler(0) }
        #expect(policy == 5, "SCHED_IDLE")
        #expect(thread.isIdlePriority)
        #expect(try await thread.run { Self.threadName() } == "ds-commits")
        // The caller's own thread is left as it was.
        #expect(sched_getscheduler(0) != 5)
    }

    /// GRDB's synchronous `write` runs its transaction on the calling thread (its queue is
    /// entered with `sync`), so a commit made from this thread runs at idle priority.
    @Test func aDatabaseWriteFromItRunsAtIdlePriority() async throws {
        let thread = IdleCommitThread()
        defer { thread.stop() }
        let database = try GameDatabase(path: temporaryDatabasePath())
        let policy = try await thread.run { [database] in
            try database.pool.write { _ in sched_getscheduler(0) }
        }
        #expect(policy == 5, "the transaction ran at SCHED_IDLE")
    }
    #endif

    @Test func afterStopItFinishesWhatItHasAndRefusesNewJobs() async throws {
        let thread = IdleCommitThread()
        #expect(try await thread.run { 1 } == 1)
        thread.stop()
        await #expect(throws: CancellationError.self) { try await thread.run { 2 } }
        // Stopping a thread that never started is harmless.
        IdleCommitThread().stop()
    }

    private static func threadName() -> String {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "\(Thread.current)"
    }
}
