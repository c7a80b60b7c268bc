import DrawProtocol
import DrawServer
import Foundation
import LoadTester
import Logging
import NIOCore
import NIOPosix
import Rooms
import Synchronization

/// The one way a benchmark reaches the server's internals: a room in the middle of a
/// drawing turn whose players' outputs are drained on their event loops, as the server's
/// are, into sinks that count bytes instead of sockets, persisting as the server does.
/// `bench-relay` drives it through `LoadTester.RelayPath`.
final class RelayPathHarness: RelayPath {
    enum Persistence {
        case off
        /// A temporary SQLite database, deleted by `finish()`.
        case sqlite
        case postgres(PostgresStoreURL)
    }

    let guessers: Int
    let eventLoops: Int
    let persistence: String
    private let runtime: DrawServerRuntime
    private let room: LiveRoom
    private let drawer: PlayerID
    private let group: MultiThreadedEventLoopGroup
    private let outboxes: [Outbox]
    private let sinks: [CountingSink]
    private let tasks: [Task<Void, any Error>]
    private let databasePath: String?

    init(guessers: Int, threads: Int, persistence: Persistence) async throws {
        var configuration = ServerConfiguration()
        // One endless turn: no drawing caps, no log compaction.
        configuration.room.maxDrawingPoints = .max
        configuration.room.maxDrawingItems = .max
        configuration.room.maxDrawingInkAreas = .max
        configuration.room.maxTurnLogBytes = .max
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        var postgres: PostgresGameStore?
        switch persistence {
        case .off:
            self.persistence = "off"
            databasePath = nil
        case .sqlite:
            self.persistence = "on (SQLite, batched)"
            databasePath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
        case .postgres(let url):
            self.persistence = "on (PostgreSQL, batched; the server's own CPU not counted)"
            databasePath = nil
            postgres = try await PostgresGameStore.open(url: url, nodeID: "bench-relay", logger: logger)
        }
        configuration.databasePath = databasePath
        runtime = try DrawServerRuntime(configuration: configuration, logger: logger, postgres: postgres)
        tasks = [runtime.writer.map { writer in Task { try await writer.run() } },
                 postgres.map { store in Task { try await store.run() } }].compactMap { $0 }

        // A seat for the drawer and each guesser (at most a room's 50).
        var settings = RoomSettings()
        settings.maxPlayers = min(RoomSettings.maxPlayersRange.upperBound, guessers + 1)
        var room = Room(code: RoomCode(parsing: "RELAY2")!, name: "bench", isPublic: true, settings: settings, configuration: configuration.room, seed: 1)
        let ids = (0...guessers).map { PlayerID("p\($0)") }
        let now = runtime.server.clock.now
        for id in ids { _ = room.join(id, name: id.rawValue, now: now) }
        _ = room.handle(.start, from: ids[0], now: now)
        _ = room.handle(.choose(index: 0), from: ids[0], now: now)
        self.room = LiveRoom(room: room, server: runtime.server)
        drawer = ids[0]
        self.guessers = guessers
        group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let loops = Array(group.makeIterator())
        eventLoops = loops.count
        var outboxes: [Outbox] = []
        var sinks: [CountingSink] = []
        for (index, id) in ids.enumerated() {
            let loop = loops[index % loops.count]
            let sink = CountingSink(eventLoop: loop)
            let delivery = runtime.server.loopDeliveries.delivery(for: loop)
            // An output is made and given its sink on its own loop.
            let outbox = try await loop.submit {
                let outbox = Outbox(limit: 1 << 30, delivery: delivery, hardClose: {})
                outbox.attach(sink)
                return outbox
            }.get()
            self.room.attach(id, outbox: outbox)
            outboxes.append(outbox)
            sinks.append(sink)
        }
        self.outboxes = outboxes
        self.sinks = sinks
    }

    func draw(_ frame: ByteBuffer) {
        room.draw(frame, from: drawer)
    }

    func finish() async throws -> RelayPathTotals {
        room.close()
        for outbox in outboxes { outbox.close(code: .normalClosure, reason: "done") }
        for sink in sinks { try await sink.closed.get() }
        let deliveredAt = ContinuousClock.now
        try await group.shutdownGracefully()
        await runtime.writer?.flush()
        var persisted: [String] = []
        if let stats = runtime.writer?.statistics {
            persisted.append(String(format: "persisted              %d stroke frames in %d commits",
                                    stats.strokeFrames, stats.commits))
            persisted.append(String(format: "commit batches         %.0f changes on average, %d at most; %.2f ms per commit on average",
                                    Double(stats.changes) / Double(max(stats.commits, 1)), stats.largestBatch, stats.commitSeconds / Double(max(stats.commits, 1)) * 1000))
        }
        if let stats = runtime.postgres?.statistics {
            persisted.append(String(format: "rooms fenced           %d", stats.fencedRooms))
        }
        for task in tasks { task.cancel() }
        if let databasePath {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        }
        return RelayPathTotals(
            deliveredBytes: sinks.reduce(0) { $0 + $1.binaryBytes }, socketWrites: sinks.reduce(0) { $0 + $1.flushes },
            deliveredAt: deliveredAt, persisted: persisted
        )
    }
}

/// A benchmark's stand-in for a socket: counts what a connection writer writes.
final class CountingSink: ConnectionSink, Sendable {
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

    /// Never called: the benchmark's outputs never write at once (no socket), so it
    /// measures queueing and drains.
    func writeRemainder(_ rest: ByteBuffer) {}

    func close(_ close: Outbox.Close) { closedPromise.succeed() }
}
