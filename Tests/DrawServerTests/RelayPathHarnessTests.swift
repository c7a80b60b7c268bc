import LoadTester
import Testing
@testable import DrawServer
@testable import DrawServerCLI

/// `bench-relay`'s two halves: the server's `RelayPathHarness` and LoadTester's
/// `RelayBenchmark`, which sees the server only through `RelayPath`.
@Suite("The relay benchmark's harness")
struct RelayPathHarnessTests {
    @Test func everyGuesserGetsEveryByte() async throws {
        let path = try await RelayPathHarness(guessers: 3, threads: 2, persistence: .off)
        let report = try await RelayBenchmark(frames: 500).run(path)
        #expect(report.isComplete, "\(report)")
        #expect(report.totals.deliveredBytes == report.sentBytes * 3)
        #expect(report.totals.socketWrites > 0)
        #expect(report.totals.persisted.isEmpty)
    }

    @Test func withSQLiteEveryFrameIsPersisted() async throws {
        let path = try await RelayPathHarness(guessers: 2, threads: 1, persistence: .sqlite)
        let report = try await RelayBenchmark(frames: 300).run(path)
        #expect(report.isComplete)
        #expect(report.totals.persisted.first?.contains(" 300 stroke frames") == true, "\(report.totals.persisted)")
    }
}
