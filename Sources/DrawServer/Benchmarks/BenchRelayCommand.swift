import ArgumentParser
import Canvas
import Foundation
import LoadTester
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket
import Rooms
import Synchronization

/// `drawserver bench-relay`: the relay path inside one process, from a drawer's frame
/// through the room and every guesser's outbound queue to its writer on an event
/// loop, up to the socket write (a sink that counts bytes stands in for the socket).
struct BenchRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-relay",
        abstract: "Benchmark the in-process relay path: drawer -> room -> guessers' queues -> writers."
    )

    @Option(help: "Frames the drawer sends.")
    var frames = 200_000
    @Option(help: "Guessers receiving each frame.")
    var guessers = 7
    @Flag(help: "Persist strokes to a temporary SQLite database, as in production.")
    var persist = false
    @Option(help: "Persist strokes to this PostgreSQL store instead (postgres://USER@HOST:PORT/DB), as a node of a cluster does; the room is written as node bench-relay.")
    var store: String?
    @Option(help: "Event-loop threads the writers run on (default: the cores this process may use).")
    var threads: Int?

    func run() async throws {
        var configuration = ServerConfiguration()
        // One endless turn: no drawing caps, no log compaction.
        configuration.room.maxDrawingPoints = .max
        configuration.room.maxDrawingItems = .max
        configuration.room.maxDrawingInkAreas = .max
        configuration.room.maxTurnLogBytes = .max
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
        configuration.databasePath = persist && store == nil ? path : nil
        var postgres: PostgresGameStore?
        if let store {
            postgres = try await PostgresGameStore.open(url: try PostgresStoreURL(parsing: store), nodeID: "bench-relay", logger: logger)
        }
        let runtime = try DrawServerRuntime(configuration: configuration, logger: logger, postgres: postgres)
        let writerTask = runtime.writer.map { writer in Task { try await writer.run() } }
        let storeTask = postgres.map { store in Task { try await store.run() } }
        defer {
            writerTask?.cancel()
            storeTask?.cancel()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }

        // A room in the middle of a drawing turn, with one outbox per player, each drained by
        // a real ConnectionWriter on an event loop into a sink that counts bytes.
        var room = Room(code: RoomCode(parsing: "RELAY2")!, name: "bench", isPublic: true, settings: RoomSettings(), configuration: configuration.room, seed: 1)
        let ids = (0...guessers).map { PlayerID("p\($0)") }
        let now = runtime.server.clock.now
        for id in ids { _ = room.join(id, name: id.rawValue, now: now) }
        _ = room.handle(.start, from: ids[0], now: now)
        _ = room.handle(.choose(index: 0), from: ids[0], now: now)
        let actor = LiveRoom(room: room, server: runtime.server)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads ?? ProcStat.allowedCores())
        let loops = Array(group.makeIterator())
        var outboxes: [Outbox] = []
        var sinks: [CountingSink] = []
        var writers: [ConnectionWriter] = []
        for (index, id) in ids.enumerated() {
            let outbox = Outbox(limit: 1 << 30, hardClose: {})
            let sink = CountingSink(eventLoop: loops[index % loops.count])
            writers.append(ConnectionWriter(outbox: outbox, sink: sink, maxFrameSize: 65_536, scheduler: runtime.server.writeSchedulers.scheduler(for: sink.eventLoop)))
            actor.attach(id, outbox: outbox)
            outboxes.append(outbox)
            sinks.append(sink)
        }

        // Realistic frames from a sample drawing, cycled; each is one pointer batch.
        let sample = SampleDrawing.make(seed: 5).frames.map { ByteBuffer(bytes: $0.bytes) }
        let drawer = ids[0]
        let cpuStart = ProcessCPU.seconds
        let start = ContinuousClock.now
        var sentBytes = 0
        for i in 0..<frames {
            let frame = sample[i % sample.count]
            sentBytes += frame.readableBytes
            actor.draw(frame, from: drawer)
        }
        let sendDone = ContinuousClock.now
        actor.close()
        for outbox in outboxes { outbox.close(code: .normalClosure, reason: "done") }
        for sink in sinks { try await sink.closed.get() }
        let delivered = sinks.reduce(0) { $0 + $1.binaryBytes }
        let elapsed = ContinuousClock.now - start
        withExtendedLifetime(writers) {}
        try await group.shutdownGracefully()
        await runtime.writer?.flush()
        await runtime.postgres?.flush()
        let cpu = ProcessCPU.seconds - cpuStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let sendSeconds = Double((sendDone - start).components.seconds) + Double((sendDone - start).components.attoseconds) / 1e18
        let deliveries = frames * guessers
        print("Relay path: \(frames) frames from 1 drawer to \(guessers) guessers on \(loops.count) event loop(s), persistence \(store != nil ? "on (PostgreSQL, batched; the server's own CPU not counted)" : persist ? "on (SQLite, batched)" : "off")")
        print(String(format: "  socket writes (drains)  %d for %d deliveries", sinks.reduce(0) { $0 + $1.flushes }, deliveries))
        print(String(format: "  frames/second          %.0f", Double(frames) / sendSeconds))
        print(String(format: "  deliveries/second      %.0f", Double(deliveries) / seconds))
        print(String(format: "  CPU per delivered frame %.3f µs", cpu / Double(deliveries) * 1e6))
        print(String(format: "  bytes delivered        %d (expected %d)", delivered, sentBytes * guessers))
        if let stats = runtime.writer?.statistics {
            print(String(format: "  persisted              %d stroke frames in %d commits (%.0f frames/second while relaying)",
                         stats.strokeFrames, stats.commits, Double(stats.strokeFrames) / seconds))
            print(String(format: "  commit batches         %.0f changes on average, %d at most; %.2f ms per commit on average",
                         Double(stats.changes) / Double(max(stats.commits, 1)), stats.largestBatch, stats.commitSeconds / Double(max(stats.commits, 1)) * 1000))
        }
        if let stats = runtime.postgres?.statistics {
            print(String(format: "  persisted              %d changes in %d commits (%d failed, %d rooms fenced)",
                         stats.changes, stats.commits, stats.failedCommits, stats.fencedRooms))
        }
    }
}

/// A benchmark's stand-in for a socket: counts what a connection writer writes.
final class CountingSink: ConnectionWriter.Sink, Sendable {
    let eventLoop: any EventLoop
    private let counts = Mutex((binaryBytes: 0, flushes: 0))
    private let closedPromise: EventLoopPromise<Void>

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.closedPromise = eventLoop.makePromise()
    }

    var isWritable: Bool { true }
    var binaryBytes: Int { counts.withLock { $0.binaryBytes } }
    var flushes: Int { counts.withLock { $0.flushes } }
    /// Succeeds when the writer closed the connection.
    var closed: EventLoopFuture<Void> { closedPromise.futureResult }

    func write(_ frame: WireFrame, flush: Bool) {
        counts.withLock {
            if frame.kind == .binary { $0.binaryBytes += frame.payloadLength }
            if flush { $0.flushes += 1 }
        }
    }

    /// Never called: the benchmark's outboxes never send at once, so it measures queueing
    /// and drains.
    func writeRemainder(_ rest: ByteBuffer) {}

    func close(_ close: Outbox.Close) { closedPromise.succeed() }
}
