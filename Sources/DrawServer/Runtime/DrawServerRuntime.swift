import Canvas
import CoreMetrics
import DrawProtocol
import Logging
import NIOCore
import NIOPosix
import ProcessStats
import Rooms
import ServiceLifecycle
import Synchronization

/// Everything a running drawserver is made of besides the HTTP layer: the game server,
/// its database and batch writer, metrics and readiness. `drawserver serve` and the
/// tests build one and hand it to `buildApplication`.
package final class DrawServerRuntime: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    package let server: GameServer
    let metrics: ServerMetrics
    let readiness = Readiness()
    let database: GameDatabase?
    /// Batches the game's changes into the SQLite file or, with `postgres`, PostgreSQL.
    package let writer: PersistenceWriter?
    /// The PostgreSQL store (`--store`), instead of the SQLite database: the writer's
    /// backend, and the cluster's leases and directory.
    package let postgres: PostgresGameStore?
    /// Messages between nodes (LISTEN/NOTIFY) on a shared store.
    let bus: ClusterBus?
    /// On a shared store: does what the store and the bus tell the server (`follow`,
    /// `ClusterBus.follow(on:)`).
    private let followers: Task<Void, Never>?
    let snapshots = SnapshotCache()
    /// Rendered `/d/ID.png` and `/d/ID.apng` images.
    let drawingImages = DrawingImageCache()
    /// Where those images render: one thread at idle priority, so rendering only uses
    /// time the event loops leave and never delays a delivery.
    let renderThread = IdleCommitThread(name: "ds-renders")
    /// On a shared store: drops drawings removed on other nodes (`watchRemovals`).
    let removalWatch = Mutex<Task<Void, Never>?>(nil)
    /// The event loops of every connection, sized by `configuration.eventLoopThreads`;
    /// lives as long as the process.
    let eventLoopGroup: any EventLoopGroup

    /// Opens the database (when `configuration.databasePath` is set); throws a clear error
    /// for a file that is not a healthy drawserver database, without modifying it.
    /// With `postgres`, rooms and players live there instead (SQLite is not opened).
    /// - Parameter lockAudit: watches the server's locks for system calls (tests).
    package init(
        configuration: ServerConfiguration, logger: Logger, postgres: PostgresGameStore? = nil, clock: ServerClock = ServerClock(),
        lockAudit: LockAudit? = nil
    ) throws {
        self.configuration = configuration
        self.logger = logger
        let threads = configuration.eventLoopThreads ?? ProcStat.allowedCores()
        let metrics = ServerMetrics()
        // The read pollers need the end of each turn of a loop (NIO's tick callback), which
        // only a group made with them reports.
        let pollers = configuration.readPolling.map { polling in
            ReadPollers(configuration: polling) { reads in metrics.polledReads.increment(by: Int64(reads)) }
        }
        self.eventLoopGroup = if let pollers {
            MultiThreadedEventLoopGroup(numberOfThreads: threads, metricsDelegate: pollers)
        } else if threads == System.coreCount {
            MultiThreadedEventLoopGroup.singleton
        } else {
            MultiThreadedEventLoopGroup(numberOfThreads: threads)
        }
        self.metrics = metrics
        self.postgres = postgres
        var persistence = configuration.persistence
        persistence.canvas = configuration.room.canvas
        if let postgres {
            self.database = nil
            let writer = PersistenceWriter(backend: postgres, configuration: persistence, metrics: metrics, logger: logger, clock: clock)
            self.writer = writer
            let bus = ClusterBus(
                store: postgres, clock: clock,
                advertise: configuration.cluster.advertise ?? "http://\(configuration.host):\(configuration.port)", logger: logger
            )
            let server = GameServer(
                configuration: configuration, logger: logger, store: writer, metrics: metrics, eventLoopGroup: eventLoopGroup,
                readPollers: pollers, clock: clock, moderation: Moderation(store: postgres, archive: postgres),
                remoteRooms: RemoteRooms(store: SharedStoreLink(store: postgres, writer: writer), messenger: bus, clock: clock), lockAudit: lockAudit
            )
            self.server = server
            self.bus = bus
            // The store and the bus tell; the server, which holds them, does.
            followers = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await Self.follow(postgres, server: server, bus: bus, metrics: metrics) }
                    group.addTask { await bus.follow(on: server) }
                }
            }
        } else if let path = configuration.databasePath {
            followers = nil
            let database = try GameDatabase(path: path, testPageLimitFile: configuration.testPageLimitFile)
            let writer = PersistenceWriter(database: database, configuration: persistence, metrics: metrics, logger: logger, clock: clock)
            self.database = database
            self.writer = writer
            self.server = GameServer(
                configuration: configuration, logger: logger, store: writer, metrics: metrics, eventLoopGroup: eventLoopGroup,
                readPollers: pollers, clock: clock, moderation: Moderation(store: database, archive: database),
                lockAudit: lockAudit
            )
            self.bus = nil
        } else {
            followers = nil
            self.bus = nil
            self.database = nil
            self.writer = nil
            self.server = GameServer(
                configuration: configuration, logger: logger, metrics: metrics, eventLoopGroup: eventLoopGroup, readPollers: pollers, clock: clock,
                lockAudit: lockAudit
            )
        }
    }

    /// Does what the shared store tells (`PostgresGameStore.Event`) until it closes. Nothing
    /// here waits on the database or the bus: a lost room is stopped at once, whatever is
    /// still on its way for an earlier event.
    private static func follow(_ postgres: PostgresGameStore, server: GameServer, bus: ClusterBus, metrics: ServerMetrics) async {
        for await event in postgres.events {
            switch event {
            case .roomLost(let code):
                // Another node took the room over (or this node could not renew in time).
                if server.room(code) != nil { metrics.roomsLost.increment() }
                server.abandon(code)
            case .directory(let directory, let players):
                metrics.clusterNodes.record(directory.liveNodes)
                server.remoteRooms.replace(directory)
                server.adopt(players)
            case .orphans(let stored, let claimed):
                let started = server.adoptRooms(stored)
                metrics.roomsTakenOver.increment(by: started.count)
                // Their players connected to other nodes are sent here.
                let moved = stored.rooms.compactMap { room -> (RoomCode, [String])? in
                    guard let code = RoomCode(parsing: room.snapshot.code), started.contains(code) else { return nil }
                    return (code, room.snapshot.members.map(\.id))
                }
                Task {
                    await postgres.releaseRooms(notRunning: { !claimed.contains($0) || started.contains($0) })
                    await bus.announceMoved(moved, stillHere: { server.room($0) != nil })
                }
            }
        }
    }

    /// Brings back the stored players and rooms, then opens for players.
    func prepare() async throws {
        if let postgres {
            let start = ContinuousClock.now
            let stored = try await postgres.load()
            server.restore(stored)
            await postgres.releaseRooms(notRunning: { server.room($0) != nil })
            try await loadModeration(from: postgres)
            let watch = watchRemovals(postgres)
            removalWatch.withLock { $0 = watch }
            logger.info("store loaded", metadata: ["store": "\(postgres.url)", "node": "\(postgres.nodeID)", "took": "\(ContinuousClock.now - start)"])
        } else if let database {
            let start = ContinuousClock.now
            let stored = try database.load()
            server.restore(stored)
            try await loadModeration(from: database)
            // Bots draw people's best-rated drawings ahead of the shipped samples.
            let drawings = try database.botDrawings(limit: Self.botDrawingLimit)
            server.addBotDrawings(drawings)
            logger.info("database loaded", metadata: ["path": "\(database.path)", "took": "\(ContinuousClock.now - start)"])
        }
        server.admission.start(on: eventLoopGroup)
        bus?.start()
        await bus?.waitUntilListening()
        readiness.set(.ready)
    }

    /// How many stored drawings bots may replay (each a turn's stroke log, at most 1 MiB).
    static let botDrawingLimit = 500

    /// The HTTP server listens on `channel`: without `--advertise`, the node's URL for the
    /// other nodes is `http://HOST:PORT` with the port actually bound.
    func serverListening(_ channel: any Channel) {
        guard configuration.cluster.advertise == nil, let port = channel.localAddress?.port else { return }
        bus?.setAdvertise("http://\(configuration.host):\(port)")
    }

    /// The close reason sent with 1012.
    static let restartReason = "server restarting: reconnect with your token"

    /// SIGTERM: refuse new players, ask every client to come back (1012), wait for them to
    /// go (at most the drain timeout), cut off whoever is still connected, and flush
    /// pending writes. The process therefore exits within the drain timeout even when a
    /// peer never answers the close handshake.
    /// Returns how many connections the drain timeout cut off.
    @discardableResult
    func drain() async -> Int {
        readiness.set(.draining)
        server.admission.stop()
        // Before anyone is asked to reconnect: the other nodes stop sending joins here.
        await bus?.announceDraining()
        await closeDrawersFirst()
        if let postgres { await handOver(postgres) }
        // Set before anyone is told, so a test that sees its 1012 and advances virtual time
        // cannot move the deadline on.
        let deadline = server.clock.now + DurationText.milliseconds(configuration.drainTimeout)
        let outboxes = server.beginDrain()
        logger.info("draining", metadata: ["connections": "\(outboxes.count)"])
        for outbox in outboxes {
            outbox.close(code: .serviceRestart, reason: Self.restartReason)
        }
        await waitForNoConnections(until: deadline)
        let stragglers = server.allOutboxes
        if !stragglers.isEmpty {
            logger.warning("drain timeout: closing the connections that are left", metadata: ["connections": "\(stragglers.count)"])
            let cutOff = server.clock.now + DurationText.milliseconds(Self.abortPatience)
            for outbox in stragglers { outbox.abort() }
            await waitForNoConnections(until: cutOff)
        }
        if let writer, await !writer.flush() {
            logger.warning("storage failing while draining: held changes are retried until exit", metadata: ["bytes": "\(writer.storageReport.heldBytes)"])
        }
        removalWatch.withLock { $0?.cancel() }
        renderThread.stop()
        logger.info("drained", metadata: ["connections left": "\(server.connectionCount)"])
        return stragglers.count
    }
}

extension DrawServerRuntime {
    /// How long the drain waits for aborted connections to finish closing before it flushes
    /// the store anyway.
    static let abortPatience: Duration = .seconds(1)

    /// How long a restart waits for the players drawing to close before it closes everyone
    /// else (a drawer that never answers its close only delays the rest this long).
    static let drawerClosePatience: Duration = .seconds(1)

    /// A restart closes the connections of the players drawing first and waits for them to
    /// close, then everyone else's. Why: a drawer keeps sending until it reads the 1012; what
    /// it sent before its own close frame is still applied, and now also reaches the room's
    /// guessers live, whose connections are still open, instead of only the canvas they get
    /// back after reconnecting (the replay counted such operations lost: issue 35).
    func closeDrawersFirst() async {
        let drawers = server.drawerConnections()
        guard !drawers.isEmpty else { return }
        for outbox in drawers.values {
            outbox.close(code: .serviceRestart, reason: Self.restartReason)
        }
        let deadline = server.clock.now + DurationText.milliseconds(Self.drawerClosePatience)
        await wait(until: deadline) { server.whenClosed(Set(drawers.keys), $0) }
        logger.info("drawers closed first", metadata: ["drawers": "\(drawers.count)", "still open": "\(server.drawerConnections().count)"])
    }

    /// Returns once no connection is open or at `deadline`, whichever comes first. On the
    /// server's clock, so a test on virtual time reaches the deadline by advancing it; the
    /// connections' side is awaited, not polled.
    func waitForNoConnections(until deadline: Timestamp) async {
        await wait(until: deadline) { server.whenNoConnections($0) }
    }

    /// Returns at `deadline` on the server's clock, or once `register`'s callback is called,
    /// whichever comes first.
    private func wait(until deadline: Timestamp, orWhen register: (@escaping @Sendable () -> Void) -> Void) async {
        let loop = eventLoopGroup.any()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Atomic<Bool>(false)
            let resume: @Sendable () -> Void = {
                if once.exchange(true, ordering: .acquiringAndReleasing) == false { continuation.resume() }
            }
            server.clock.run(at: deadline, on: loop, resume)
            register(resume)
        }
    }

    /// Rolling restart on a shared store: instead of waiting for games to end, every room
    /// stops here (its members are asked to reconnect, 1012), what it wrote is committed,
    /// its lease is released, and the other nodes are told to take it over now. Clients
    /// reconnect through the balancer with their tokens; a node that takes a room over
    /// sends its players `redirect` to it wherever they landed (`ClusterBus`).
    func handOver(_ postgres: PostgresGameStore) async {
        let codes = server.withDirectory { Array($0.rooms.keys) }.sorted()
        for code in codes { server.abandon(code) }
        await writer?.flush()
        let released = await postgres.releaseAll()
        await bus?.announceReleased(released)
        bus?.stop()
        logger.info("rooms handed over", metadata: ["rooms": "\(released.count)", "node": "\(postgres.nodeID)"])
    }

    /// The store's fault state, whichever store this node writes to; nil without one.
    var storageReport: StorageReport? { writer?.storageReport }
}

/// Runs the runtime's start-up and drain around the application's life. Listed after the
/// application in the service group, so on SIGTERM it drains before the HTTP server stops.
struct LifecycleService: Service {
    let runtime: DrawServerRuntime

    func run() async throws {
        try await runtime.prepare()
        try? await gracefulShutdown()
        await runtime.drain()
    }
}
