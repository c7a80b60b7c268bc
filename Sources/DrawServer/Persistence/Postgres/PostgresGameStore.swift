import Canvas
import DrawProtocol
import Logging
import PostgresNIO
import Rooms
import ServiceLifecycle
import Synchronization

/// The PostgreSQL store (`serve --store postgres://...`), so several nodes can share one
/// database: the `PersistenceWriter`'s backend for the game's records (the writer batches
/// and holds them exactly as it does for SQLite), and the cluster's side of the database:
/// the rooms' leases, the directory of the other nodes' rooms and players, the take-over
/// of a dead node's rooms, the gallery and moderation.
///
/// Every room write is fenced by the room's lease (`LeaseKeeper`, `PostgresLeases`): a
/// room is claimed the first time it is written, its rows carry the lease's epoch, and a
/// batch writes a room only while the store still has this node's epoch for it (checked
/// under a row lock in the batch's transaction). A refused room is reported lost
/// (`Event.roomLost`) and the node stops running it.
package final class PostgresGameStore: Service {
    package struct Configuration: Sendable {
        /// Finished turns kept (with their stroke logs); older ones are deleted.
        var turnRetention = 5_000
        var leases = LeaseKeeper.Configuration()
        /// How often the leases are checked: renewals due, leases run out. Well inside
        /// `LeaseKeeper.Configuration.safetyMargin`.
        var leaseTick: Duration = .milliseconds(50)
        /// How often the node reads which rooms the other nodes run, and the players they
        /// stored (for `redirect` and resuming tokens across nodes).
        var directoryInterval: Duration = .milliseconds(500)
        /// How long start-up waits for another process with the same node id to let go
        /// (a node killed a moment ago: PostgreSQL ends its session when it sees the socket
        /// close) before refusing.
        var identityPatience: Duration = .seconds(3)
        /// A commit still waiting after this long is reported as a fault (the writer's
        /// `StorageBackend.stallLimit`): it is not cancelled, since it may already be in the
        /// database.
        var stalledCommit: Duration = .seconds(2)
        /// How long a database call waits for the pool to hand it a connection before it
        /// fails as the database being unreachable (`StoreConnections`): the writer loop,
        /// and with it `flush()` and a stopping node, never wait longer for a database that
        /// refuses connections.
        var connectionPatience: Duration = .seconds(2)
        /// How long a database call may hold its connection before it fails and the
        /// connection is closed (`StoreConnections`); a batch gets more per change it
        /// carries (`writeLimit`).
        var callLimit: Duration = .seconds(5)

        /// A batch of `changes` (frames counted) may take `callLimit` plus a millisecond
        /// for every 20: a batch held through a long outage is large.
        func writeLimit(changes: Int) -> Duration { callLimit + .milliseconds(changes / 20) }
    }

    let url: PostgresStoreURL
    let nodeID: String
    let configuration: Configuration
    let logger: Logger
    /// The pool, each call's wait for a connection bounded.
    let client: StoreConnections
    let leases: PostgresLeases
    /// The store's deadlines (the leases' validity and their tick, the stalled-commit
    /// watchdog, the heartbeat and directory cadence, the start-up patience): the process's
    /// monotonic clock, or a test's `ManualServerClock`.
    let clock: ServerClock
    private let clientTask: Task<Void, Never>
    /// The pool's own event loop. postgres-nio's default is the process's shared group,
    /// which is the server's: a batch of megabytes would then be written, and every
    /// answer read, in line with the players' frames.
    private let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Holds the node id's advisory lock while the node runs, and takes it back after a
    /// lost session.
    private let identity: NodeIdentity
    /// Set when another node released rooms (`ClusterBus`): scan for them now.
    private let scan = Mutex(ScanRequest())
    /// What the writer's commits leave for the store to know (`Unwritten`).
    let unwritten = Mutex(Unwritten())

    struct Unwritten {
        /// The rooms the writer has changes for that are not written yet
        /// (`StorageBackend.holding`): a lost one is not taken back, nor a lease
        /// released, before they go in.
        var heldRooms: Set<RoomCode> = []
        /// The rooms a batch left out (their lease was being acquired), for as long as
        /// that batch may be tried again: if its first commit went in, they still have to be.
        var leftOut: (batch: Int64, rooms: Set<RoomCode>)?
    }
    let keeper: Mutex<LeaseKeeper>
    /// What the store's loops found that the server running the rooms must act on, in
    /// order (`Event`). A stream rather than callbacks into the server: the server holds
    /// the store, and the store holds only this stream's end, so neither needs the other
    /// at construction and nothing has to break a cycle.
    let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    private let totals = Mutex(Statistics())

    package struct Statistics: Sendable, Equatable {
        /// Rooms whose writes the store refused: another node holds a newer epoch.
        package var fencedRooms = 0
    }

    package var statistics: Statistics { totals.withLock { $0 } }

    private struct ScanRequest {
        var requested = false
        var waiter: CheckedContinuation<Void, Never>?
        var timer: ClockTimer?
    }

    /// Connects, brings the schema up to date (safe when several nodes start at once) and
    /// starts the connection pool. Fails with a one-line reason when the database cannot
    /// be reached or refuses.
    package static func open(
        url: PostgresStoreURL, nodeID: String, configuration: Configuration = Configuration(), clock: ServerClock = ServerClock(), logger: Logger
    ) async throws(StoreOpenError) -> PostgresGameStore {
        let tls: PostgresStoreURL.TLSSettings
        do {
            tls = try url.tlsSettings()
        } catch {
            throw StoreOpenError(store: url.description, reason: error.reason)
        }
        // One plain connection first: the pool retries forever, this fails at once.
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration(tls), id: 0, logger: logger)
        } catch {
            throw StoreOpenError(store: url.description, reason: "cannot connect: \(StoreOpenError.reason(error))")
        }
        do {
            try await PostgresSchema.migrate(connection, logger: logger)
        } catch {
            try? await connection.close()
            throw StoreOpenError(store: url.description, reason: "migration failed: \(StoreOpenError.reason(error))")
        }
        // This connection stays open for the node's life, holding a session lock on its id:
        // a second process with the same id is refused, and a killed one lets go at once.
        let identity: NodeIdentity
        do {
            guard let held = try await NodeIdentity.take(
                nodeID, on: connection, configuration: url.connectionConfiguration(tls), patience: configuration.identityPatience, clock: clock,
                logger: logger
            ) else {
                try? await connection.close()
                throw StoreOpenError(store: url.description, reason: "node id \(nodeID) is already running on this store (--node-id)")
            }
            identity = held
        } catch let error as StoreOpenError {
            throw error
        } catch {
            try? await connection.close()
            throw StoreOpenError(store: url.description, reason: "cannot register the node: \(StoreOpenError.reason(error))")
        }
        return PostgresGameStore(url: url, tls: tls, nodeID: nodeID, identity: identity, configuration: configuration, clock: clock, logger: logger)
    }

    private init(
        url: PostgresStoreURL, tls: PostgresStoreURL.TLSSettings, nodeID: String, identity: NodeIdentity, configuration: Configuration,
        clock: ServerClock, logger: Logger
    ) {
        self.identity = identity
        self.clock = clock
        self.url = url
        self.nodeID = nodeID
        self.configuration = configuration
        self.logger = logger
        var options = url.clientConfiguration(tls)
        options.options.maximumConnections = 4
        // A transaction left open by a node that went quiet (cut off from the database,
        // paused) keeps its row locks, the batch's `FOR SHARE` on its leases among them:
        // the node taking those rooms over would wait for them for as long as the
        // partition lasts. PostgreSQL ends such a session after a lease's length; by then
        // its node has stopped running the rooms (`LeaseKeeper.Configuration.validity`).
        options.options.additionalStartupParameters = [
            ("idle_in_transaction_session_timeout", "\(configuration.leases.durationMs)ms"),
        ]
        let pool = PostgresClient(configuration: options, eventLoopGroup: loop, backgroundLogger: logger)
        let client = StoreConnections(pool: pool, patience: configuration.connectionPatience, limit: configuration.callLimit, clock: clock)
        self.client = client
        self.clientTask = Task { await pool.run() }
        self.leases = PostgresLeases(client: client, nodeID: nodeID, durationMs: configuration.leases.durationMs, logger: logger)
        self.keeper = Mutex(LeaseKeeper(configuration: configuration.leases))
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    }

    /// What the store tells the server that runs this node's rooms.
    enum Event: Sendable {
        /// Another node took the room over, or this node could not renew its lease in
        /// time: stop running it.
        case roomLost(RoomCode)
        /// The rooms other live nodes run, and the players stored lately.
        case directory(RemoteRooms.Directory, players: [StoredState.Player])
        /// Rooms taken over from a node that is gone: run those that can be run, then
        /// release the rest of `claimed` (`releaseRooms(notRunning:)`).
        case orphans(StoredState, claimed: Set<RoomCode>)
    }

    /// Hands `event` to whoever reads `events` (nobody in a test of the store alone).
    func tell(_ event: Event) {
        eventSink.yield(event)
    }

    /// The leases' time (`LeaseKeeper` counts game-clock milliseconds): the store clock's.
    var now: Timestamp { clock.now }

    /// Stops the pool and lets go of the node id; for tests that open several stores (the
    /// server's own store stops when its `run` ends).
    func close() async {
        eventSink.finish()
        clientTask.cancel()
        await identity.close()
        await clientTask.value
        try? await loop.shutdownGracefully()
    }

    // MARK: - The directory loop

    /// Keeps the leases on their own clock, and reads the directory every
    /// `directoryInterval` (at once after `scanSoon`), taking over orphaned rooms. The
    /// writer, which commits the game's changes here, stops first (the server lists it
    /// after the store, and services stop in reverse order): then the leases of every room
    /// it wrote everything for are released, so other nodes take them at once.
    package func run() async throws {
        let leaseClock = Task { await self.keepLeases() }
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await self.identity.keep() }
                    group.addTask { await self.readDirectory() }
                    // The directory loop ends when cancelled; the identity's throws when
                    // another process took the node id.
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            // Another process runs as this node now: its leases are its own, so none is
            // released here.
            leaseClock.cancel()
            logger.critical("this node stops: \(error)")
            await close()
            throw error
        }
        leaseClock.cancel()
        // What the writer could not write keeps its rooms' leases: they run out by
        // themselves, and the rooms' held changes are not overtaken by another node.
        let unwritten = self.unwritten.withLock { $0.heldRooms }
        let releases = keeper.withLock { k in k.leases.keys.filter { !unwritten.contains($0) }.flatMap { k.release($0) } }
        await perform(releases)
        await close()
    }

    /// Reads the directory every `directoryInterval` (at once after `scanSoon`) and takes
    /// over orphaned rooms, until cancelled.
    private func readDirectory() async {
        var playersSince = GameDatabase.wallClockMs - 5_000
        var directoryReads = DirectoryReads()
        while !Task.isCancelled {
            // Players from a few seconds back as well: the nodes' wall clocks stamp
            // last_seen_at and need not agree exactly.
            let since = GameDatabase.wallClockMs - 5_000
            if await refreshDirectory(playersSince: playersSince, reads: &directoryReads) != nil {
                // The scan reads every lease and room: run only when the directory
                // shows a room it may take (a whole read, every 30 s, checks again).
                if directoryReads.mayHaveOrphans { await adoptOrphans() }
                playersSince = since
            }
            await waitForScan()
        }
    }

    /// Reads the directory and takes over orphaned rooms now instead of at the next
    /// `directoryInterval`.
    func scanSoon() { wakeDirectory(scan: true) }

    /// Ends the directory loop's wait; `scan`: a scan was asked for (kept for the next wait
    /// when the loop is not waiting).
    private func wakeDirectory(scan requested: Bool) {
        let (waiter, timer) = scan.withLock { s -> (CheckedContinuation<Void, Never>?, ClockTimer?) in
            guard let waiter = s.waiter else {
                if requested { s.requested = true }
                return (nil, nil)
            }
            defer { (s.waiter, s.timer) = (nil, nil) }
            return (waiter, s.timer)
        }
        timer?.cancel()
        waiter?.resume()
    }

    /// Waits `directoryInterval` on the store's clock, or less when a scan is asked for or
    /// the loop is cancelled.
    private func waitForScan() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = scan.withLock { s -> Bool in
                    // Cancelled before the handler could find a waiter: it found none.
                    if s.requested || Task.isCancelled {
                        s.requested = false
                        return true
                    }
                    s.waiter = continuation
                    return false
                }
                if now { return continuation.resume() }
                let timer = clock.schedule(configuration.directoryInterval) { self.wakeDirectory(scan: false) }
                let woken = scan.withLock { s -> Bool in
                    guard s.waiter != nil else { return true }
                    s.timer = timer
                    return false
                }
                if woken { timer.cancel() }
            }
        } onCancel: {
            wakeDirectory(scan: false)
        }
    }

    func countFenced(_ rooms: Int) { totals.withLock { $0.fencedRooms += rooms } }
}
