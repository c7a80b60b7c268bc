import Canvas
import Foundation
import NIOCore
import ProcessStats

/// The server's relay path as `bench-relay` sees it: one drawer's frames in, every
/// guesser's writer counting what reaches its (stand-in) socket. The server provides it
/// (`RelayPathHarness`), so this side needs none of the server's internals: it only
/// drives, times and reports.
package protocol RelayPath: AnyObject {
    /// Guessers each frame is delivered to.
    var guessers: Int { get }
    /// Event loops the guessers' writers run on.
    var eventLoops: Int { get }
    /// How the path persists, for the report ("off", "SQLite, batched", ...).
    var persistence: String { get }
    /// One frame from the drawer, as its connection would hand it over.
    func draw(_ frame: ByteBuffer)
    /// Closes every connection, waits until everything was written and persisted, and
    /// says what was.
    func finish() async throws -> RelayPathTotals
}

package struct RelayPathTotals: Sendable {
    package var deliveredBytes: Int
    package var socketWrites: Int
    /// When the last guesser's writer closed, everything written (persistence may go on).
    package var deliveredAt: ContinuousClock.Instant
    /// Lines the persistence layer adds to the report.
    package var persisted: [String]

    package init(deliveredBytes: Int, socketWrites: Int, deliveredAt: ContinuousClock.Instant, persisted: [String]) {
        self.deliveredBytes = deliveredBytes
        self.socketWrites = socketWrites
        self.deliveredAt = deliveredAt
        self.persisted = persisted
    }
}

/// Sends a sample drawing's frames, cycled, through a `RelayPath` and measures the CPU
/// this process spends per delivered frame (persistence included, up to its last commit).
package struct RelayBenchmark: Sendable {
    package var frames: Int
    static let yieldEvery = 1_024

    package init(frames: Int) {
        self.frames = frames
    }

    package struct Report: Sendable, CustomStringConvertible {
        package var frames: Int
        package var guessers: Int
        package var eventLoops: Int
        package var persistence: String
        package var sendSeconds: Double
        package var seconds: Double
        package var cpuSeconds: Double
        package var sentBytes: Int
        package var totals: RelayPathTotals

        package var deliveries: Int { frames * guessers }
        package var cpuPerDelivery: Double { cpuSeconds / Double(max(deliveries, 1)) }
        /// Every guesser got every byte the drawer sent.
        package var isComplete: Bool { totals.deliveredBytes == sentBytes * guessers }

        package var description: String {
            var lines = [
                "Relay path: \(frames) frames from 1 drawer to \(guessers) guessers on \(eventLoops) event loop(s), persistence \(persistence)",
                String(format: "  socket writes (drains)  %d for %d deliveries", totals.socketWrites, deliveries),
                String(format: "  frames/second          %.0f", Double(frames) / sendSeconds),
                String(format: "  deliveries/second      %.0f", Double(deliveries) / seconds),
                String(format: "  CPU per delivered frame %.3f µs", cpuPerDelivery * 1e6),
                String(format: "  bytes delivered        %d (expected %d)", totals.deliveredBytes, sentBytes * guessers),
            ]
            lines += totals.persisted.map { "  " + $0 }
            return lines.joined(separator: "\n")
        }
    }

    package func run(_ path: some RelayPath) async throws -> Report {
        // Realistic frames from a sample drawing, cycled; each is one pointer batch.
        let sample = SampleDrawing.make(seed: 5).frames.map { ByteBuffer(bytes: $0.bytes) }
        let sentBytes = (0..<frames).reduce(0) { $0 + sample[$1 % sample.count].readableBytes }
        let cpuStart = ProcessCPU.seconds
        let start = ContinuousClock.now
        for i in 0..<frames {
            path.draw(sample[i % sample.count])
            // Lets the store's writer (a task) have the pool now and then: pinned to one
            // core the pool has one thread, and this loop would hold it to the end, so
            // every change would be committed at once after the run.
            if i % Self.yieldEvery == Self.yieldEvery - 1 { await Task.yield() }
        }
        let sendDone = ContinuousClock.now
        let totals = try await path.finish()
        return Report(
            frames: frames, guessers: path.guessers, eventLoops: path.eventLoops, persistence: path.persistence,
            sendSeconds: (sendDone - start).seconds, seconds: (totals.deliveredAt - start).seconds,
            cpuSeconds: ProcessCPU.seconds - cpuStart, sentBytes: sentBytes, totals: totals
        )
    }
}
