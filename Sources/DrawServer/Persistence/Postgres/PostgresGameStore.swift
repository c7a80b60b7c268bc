import Canvas
import DrawProtocol
import Logging
import PostgresNIO
import Rooms
import ServiceLifecycle
import Synchronization

/// The PostgreSQL store (`serve --store postgres://...`): the same records as the SQLite
/// `PersistenceWriter`, batched the same way (the hot path only appends to a list under a
/// lock, and packs a drawing frame into its room's stroke row; a commit every `interval`),
/// so several nodes can share one database.
///
/// Every room write is fenced by the room's lease (`LeaseKeeper`, `PostgresLeases`): a
/// room is claimed the first time it is written, its rows carry the lease's epoch, and a
/// batch writes a room only while the store still has this node's epoch for it (checked
/// under a row lock in the batch's transaction). A refused room is reported lost
/// (`Event.roomLost`) and the node stops running it.
package final class PostgresGameStore: GameStore, Service {
    package struct Configuration: Sendable {
        /// The longest a change waits before it is committed.
        var interval: Duration = .milliseconds(75)
        /// Commit early once this many changes (a drawing frame counts as one) are waiting.
        /// Each commit is about ten round trips whatever its size, so a busy node writes
        /// fewer, larger batches.
        var maxBatch = 16_384
        /// Finished turns kept (with their stroke logs); older ones are deleted.
        var turnRetention = 5_000
        /// Changes (a drawing frame counts as one) kept for the next commit while the
        /// database is unreachable; past this, the oldest frames are dropped first, then the
        /// oldest other changes (and logged).
        var maxRetainedChanges = 200_000
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
        /// A commit still waiting after this long counts as a fault: the client waits for a
        /// connection without a deadline while the database is unreachable, and the commit
        /// is not cancelled (it may already be in the database), only reported.
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

    /// A change other than a drawing frame: frames go straight into their room's packed
    /// stroke row (`StrokeRuns`), which is what a batch writes of them anyway.
    enum Change: Sendable {
        indirect case player(PlayerRecord)
        indirect case room(RoomSnapshot)
        case roomClosed(RoomCode)
        indirect case turn(TurnRecord)
        indirect case game(GameRecord)
        case turnRated(TurnRating)

        var room: RoomCode? {
            switch self {
            case .room(let snapshot): RoomCode(parsing: snapshot.code)
            case .roomClosed(let room): room
            case .turn(let record): record.roomCode
            case .game(let record): record.roomCode
            case .turnRated(let rating): rating.roomCode
            case .player: nil
            }
        }
    }

    private struct Pending: Sendable {
        var changes: [Change] = []
        /// The drawing frames, packed per room and canvas generation as they come.
        var strokes = StrokeRuns()
        /// `flush()` callers, resumed once everything queued before them was tried.
        var flushes: [CheckedContinuation<Void, Never>] = []
        var waiter: CheckedContinuation<Void, Never>?
        var urgent = false
        var stopped = false
        /// A batch whose transaction failed with no answer: PostgreSQL may have committed
        /// it (a primary lost after its `COMMIT` reached the standby). Tried again alone,
        /// under the same id, before anything newer (`commitPending`).
        var inDoubt: BatchInDoubt?

        /// Changes waiting, each frame counted as one.
        var count: Int { changes.count + strokes.frames + (inDoubt?.count ?? 0) }
    }

    /// A batch to write again exactly as it was: its id tells the store whether it is
    /// in already (`Batch.markApplied`).
    struct BatchInDoubt: Sendable {
        var id: Int64
        var changes: [Change]
        var strokes: StrokeRuns
        var count: Int { changes.count + strokes.frames }
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
    /// Holds the node id's advisory lock while the node runs.
    private let identity: PostgresConnection
    private let pending = Mutex(Pending())
    /// The next batch's id. Random to start, so a restarted node's first batch does not
    /// repeat the last one its previous process wrote.
    private let nextBatchID = Atomic<Int64>(.random(in: .min ... .max))
    /// Set when another node released rooms (`ClusterBus`): scan for them now.
    private let scanRequested = Atomic<Bool>(false)
    let keeper: Mutex<LeaseKeeper>
    /// What the store's loops found that the server running the rooms must act on, in
    /// order (`Event`). A stream rather than callbacks into the server: the server holds
    /// the store, and the store holds only this stream's end, so neither needs the other
    /// at construction and nothing has to break a cycle.
    let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    private let totals = Mutex(Statistics())

    package struct Statistics: Sendable, Equatable {
        package var commits = 0
        package var failedCommits = 0
        package var changes = 0
        package var fencedRooms = 0
        var droppedChanges = 0
        /// The fault in progress (the database unreachable), and since when (wall ms).
        var fault: StorageFault?
        var failingSince: Int64?
    }

    package var statistics: Statistics { totals.withLock { $0 } }

    func updateHealth<T>(_ body: (inout Statistics) -> T) -> T { totals.withLock { body(&$0) } }

    /// Changes waiting for the next commit, each drawing frame counted as one.
    var pendingCount: Int { pending.withLock { $0.count } }

    /// The rooms that changes waiting for the next commit belong to.
    var roomsWithPendingChanges: Set<RoomCode> {
        pending.withLock { p in
            var rooms = Set(p.changes.compactMap(\.room)).union(p.strokes.rooms.compactMap(RoomCode.init(parsing:)))
            if let doubt = p.inDoubt {
                rooms.formUnion(doubt.changes.compactMap(\.room))
                rooms.formUnion(doubt.strokes.rooms.compactMap(RoomCode.init(parsing:)))
            }
            return rooms
        }
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
        do {
            guard try await holdIdentity(nodeID, on: connection, patience: configuration.identityPatience, clock: clock, logger: logger) else {
                try? await connection.close()
                throw StoreOpenError(store: url.description, reason: "node id \(nodeID) is already running on this store (--node-id)")
            }
        } catch let error as StoreOpenError {
            throw error
        } catch {
            try? await connection.close()
            throw StoreOpenError(store: url.description, reason: "cannot register the node: \(StoreOpenError.reason(error))")
        }
        return PostgresGameStore(url: url, tls: tls, nodeID: nodeID, identity: connection, configuration: configuration, clock: clock, logger: logger)
    }

    /// Takes the advisory lock named after the node id on `connection`, retrying for
    /// `patience`; false when another session keeps it.
    private static func holdIdentity(
        _ nodeID: String, on connection: PostgresConnection, patience: Duration, clock: ServerClock, logger: Logger
    ) async throws -> Bool {
        let key = "drawserver node \(nodeID)"
        let deadline = clock.elapsed() + patience
        while true {
            for try await held in try await connection.query(
                "SELECT pg_try_advisory_lock(hashtextextended(\(key), 0))", logger: logger
            ).decode(Bool.self) where held {
                return true
            }
            guard clock.elapsed() < deadline else { return false }
            await clock.sleep(Self.identityRetry)
        }
    }

    /// How often start-up asks again for a node id another process holds.
    static let identityRetry = Duration.milliseconds(100)

    private init(
        url: PostgresStoreURL, tls: PostgresStoreURL.TLSSettings, nodeID: String, identity: PostgresConnection, configuration: Configuration,
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
        /// A call to the database failed (counted in the metrics).
        case commitFailed
        /// A batch went in: its changes (each frame counted as one), its frames, and how
        /// long it took (the metrics' `drawserver_db_commit_seconds`, as SQLite's).
        case committed(changes: Int, frames: Int, took: Duration)
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
        try? await identity.close()
        await clientTask.value
        try? await loop.shutdownGracefully()
    }

    // MARK: - GameStore (called under room and session locks; never blocks)

    func playerChanged(_ record: PlayerRecord, wakes: inout WakeUps) { enqueue(.player(record), wakes: &wakes) }
    func roomChanged(_ snapshot: RoomSnapshot, wakes: inout WakeUps) { enqueue(.room(snapshot), wakes: &wakes) }
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame, wakes: inout WakeUps) {
        // Packed here rather than queued as a change: no per-frame change to build, keep
        // the frame's bytes alive for, and go through again in the writer.
        LockAudit.acquired("the store's batch")
        let full = pending.withLock { p in
            p.strokes.add(frame, room: room.rawValue, generation: generation)
            return p.count >= configuration.maxBatch
        }
        // Once a batch: the writer's continuation is taken only then.
        if full, let waiter = pending.withLock({ takeWaiterIfFull(&$0) }) { wakes.resume(waiter) }
    }
    func roomClosed(_ code: RoomCode, wakes: inout WakeUps) { enqueue(.roomClosed(code), wakes: &wakes) }
    func turnFinished(_ record: TurnRecord, wakes: inout WakeUps) { enqueue(.turn(record), wakes: &wakes) }
    func gameFinished(_ record: GameRecord, wakes: inout WakeUps) { enqueue(.game(record), wakes: &wakes) }
    func turnRated(_ rating: TurnRating, wakes: inout WakeUps) { enqueue(.turnRated(rating), wakes: &wakes) }

    /// Queues a change; a full batch names the writer loop's task in `wakes`.
    private func enqueue(_ change: Change, wakes: inout WakeUps) {
        LockAudit.acquired("the store's batch")
        let waiter = pending.withLock { p -> CheckedContinuation<Void, Never>? in
            p.changes.append(change)
            return takeWaiterIfFull(&p)
        }
        if let waiter { wakes.resume(waiter) }
    }

    /// The writer's continuation, to wake once a full batch waits.
    private func takeWaiterIfFull(_ p: inout Pending) -> CheckedContinuation<Void, Never>? {
        guard p.count >= configuration.maxBatch, let waiter = p.waiter else { return nil }
        p.waiter = nil
        return waiter
    }

    // MARK: - The writer loop

    package func run() async throws {
        let leaseClock = Task { await self.keepLeases() }
        await cancelWhenGracefulShutdown {
            var lastBeat = self.clock.elapsed()
            var lastDirectory = self.clock.elapsed()
            var playersSince = GameDatabase.wallClockMs - 5_000
            var directoryReads = DirectoryReads()
            while !Task.isCancelled {
                await self.waitForBatch()
                // Any of this iteration's database calls (leases, commits, heartbeat, the
                // directory) may hang on a connection cut off mid-query (a partition), and
                // each may wait up to the connection patience for a connection: an
                // iteration that takes too long is reported as the fault it is.
                let started = self.clock.elapsed()
                // A timer the iteration calls off when it ends in time, so one is pending at
                // a time (a sleeping task per iteration would outlive its cancel by 2 s).
                // Strong: a weak reference would give the store a side table, and every
                // retain of it on the hot path (`frameAppended`) would take the slow path.
                let stalled = self.configuration.stalledCommit
                let watchdog = self.clock.schedule(stalled) {
                    self.noteFailure(StalledCommit(waited: stalled))
                }
                // Once a call of this iteration has failed (the database unreachable), the
                // rest wait for the next one: each would wait out the connection patience
                // again, and a `flush()` (a draining node's) waits for the next commit.
                var reachable = await self.commitPending()
                // Every commit stamps the node's alive_at; an idle node stamps it at least
                // once a second, so a crashed node's rooms know how long they ran.
                if reachable, self.clock.elapsed() - lastBeat >= Self.heartbeatInterval {
                    reachable = await self.heartbeat()
                    lastBeat = self.clock.elapsed()
                }
                // A requested scan waits with the rest: its flag is taken only when it runs.
                let scanNow = reachable && self.scanRequested.exchange(false, ordering: .relaxed)
                if reachable, scanNow || self.clock.elapsed() - lastDirectory >= self.configuration.directoryInterval {
                    // Players from a few seconds back as well: the nodes' wall clocks stamp
                    // last_seen_at and need not agree exactly.
                    let since = GameDatabase.wallClockMs - 5_000
                    if await self.refreshDirectory(playersSince: playersSince, reads: &directoryReads) != nil {
                        // The scan reads every lease and room: run only when the directory
                        // shows a room it may take (a whole read, every 30 s, checks again).
                        if directoryReads.mayHaveOrphans { await self.adoptOrphans() }
                        playersSince = since
                    }
                    lastDirectory = self.clock.elapsed()
                }
                watchdog.cancel()
                // Answered in time with nothing left waiting: the database is reachable.
                if self.clock.elapsed() - started < self.configuration.stalledCommit, self.pendingCount == 0 { self.noteSuccess() }
            }
        }
        leaseClock.cancel()
        await commitPending()
        pending.withLock { $0.stopped = true }
        await commitPending()
        // Two tries, each waiting at most the connection patience for a database that is
        // gone: what they could not write is lost, and the exit status says so (as the
        // SQLite writer's does once its exit patience is spent).
        let unwritten = pendingCount
        if unwritten == 0 {
            // Hand the rooms over at once instead of letting their leases run out.
            let releases = keeper.withLock { k in k.leases.keys.flatMap { k.release($0) } }
            await perform(releases)
        } else {
            logger.critical("database unreachable at exit: changes not written are lost", metadata: [
                "changes": "\(unwritten)", "fault": "\(statistics.fault?.description ?? "?")",
            ])
            totals.withLock { $0.droppedChanges += unwritten }
        }
        await close()
        if unwritten > 0 { throw StoreUnwrittenAtExit(changes: unwritten) }
    }

    /// A stopping node could not write everything it held: the database was unreachable.
    struct StoreUnwrittenAtExit: Error, CustomStringConvertible {
        var changes: Int
        var description: String { "database unreachable at exit: \(changes) changes could not be written" }
    }

    /// The longest an idle node goes without stamping its `alive_at`.
    static let heartbeatInterval = Duration.seconds(1)

    /// Returns once everything queued so far was tried (committed, or kept for a retry
    /// when the database is unreachable).
    package func flush() async {
        await withCheckedContinuation { continuation in
            let (stopped, waiter) = pending.withLock { p -> (Bool, CheckedContinuation<Void, Never>?) in
                guard !p.stopped else { return (true, nil) }
                p.flushes.append(continuation)
                p.urgent = true
                defer { p.waiter = nil }
                return (false, p.waiter)
            }
            if stopped { continuation.resume() }
            waiter?.resume()
        }
    }

    /// Reads the directory and takes over orphaned rooms at the next iteration of the
    /// writer loop, instead of at the next `directoryInterval`.
    func scanSoon() {
        scanRequested.store(true, ordering: .relaxed)
        let waiter = pending.withLock { p -> CheckedContinuation<Void, Never>? in
            p.urgent = true
            defer { p.waiter = nil }
            return p.waiter
        }
        waiter?.resume()
    }

    private func isDue(_ p: Pending) -> Bool { p.urgent || p.count >= configuration.maxBatch }

    private func waitForBatch() async {
        if pending.withLock({ isDue($0) }) { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: self.configuration.interval) }
            group.addTask {
                await withCheckedContinuation { continuation in
                    let resumeNow = self.pending.withLock { p -> Bool in
                        if self.isDue(p) { return true }
                        p.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
            await group.next()
            group.cancelAll()
            let waiter = self.pending.withLock { p -> CheckedContinuation<Void, Never>? in
                defer { p.waiter = nil }
                return p.waiter
            }
            waiter?.resume()
            await group.waitForAll()
        }
    }

    /// Only the writer loop commits, so batches reach the database in order. False when
    /// a batch could not be written (kept for the next try).
    @discardableResult
    func commitPending() async -> Bool {
        // A batch in doubt goes first and alone: merged with newer changes under a new id,
        // it would be written twice if its first commit went in.
        var committed = true
        if let doubt = pending.withLock({ p in defer { p.inDoubt = nil }; return p.inDoubt }) {
            let started = clock.elapsed()
            committed = await write(doubt.changes, strokes: doubt.strokes, batch: doubt.id, retry: true)
            count(committed, changes: doubt.count, frames: doubt.strokes.frames, took: clock.elapsed() - started)
        }
        // The next list starts as large as this one, instead of growing again change by
        // change on the hot path.
        var changes: [Change] = []
        changes.reserveCapacity(committed ? pending.withLock { $0.changes.count } : 0)
        var strokes = StrokeRuns()
        let flushes = pending.withLock { p -> [CheckedContinuation<Void, Never>] in
            p.urgent = false
            if committed {
                swap(&changes, &p.changes)
                swap(&strokes, &p.strokes)
            }
            defer { p.flushes = [] }
            return p.flushes
        }
        if !changes.isEmpty || !strokes.isEmpty {
            let started = clock.elapsed()
            committed = await write(changes, strokes: strokes, batch: nextBatchID.wrappingAdd(1, ordering: .relaxed).oldValue)
            count(committed, changes: changes.count + strokes.frames, frames: strokes.frames, took: clock.elapsed() - started)
        }
        for continuation in flushes { continuation.resume() }
        return committed
    }

    private func count(_ committed: Bool, changes: Int, frames: Int, took: Duration) {
        totals.withLock { t in
            if committed { t.commits += 1; t.changes += changes } else { t.failedCommits += 1 }
        }
        if committed { tell(.committed(changes: changes, frames: frames, took: took)) }
    }

    /// Puts changes that could not be committed back in front of the queue, for the next
    /// commit. Past `maxRetainedChanges`, the oldest frames are dropped (whole stroke rows),
    /// then the oldest other changes: a room's snapshot is its state, a frame only adds to
    /// its canvas.
    func retain(_ changes: [Change], strokes: StrokeRuns) {
        let dropped = pending.withLock { p -> Int in
            p.changes = changes + p.changes
            p.strokes.prepend(strokes)
            return bound(&p)
        }
        reportDropped(dropped)
    }

    /// Keeps a batch whose transaction may have committed, to write again under `id`
    /// before anything newer. Within the same bound as `retain`, its frames and then its
    /// changes going first (they are the oldest).
    func keepInDoubt(_ changes: [Change], strokes: StrokeRuns, id: Int64) {
        let dropped = pending.withLock { p -> Int in
            p.inDoubt = BatchInDoubt(id: id, changes: changes, strokes: strokes)
            return bound(&p)
        }
        reportDropped(dropped)
    }

    /// Drops the oldest of what waits down to `maxRetainedChanges`: frames before changes,
    /// the batch in doubt's before the rest.
    private func bound(_ p: inout Pending) -> Int {
        let limit = configuration.maxRetainedChanges
        var dropped = 0
        if var doubt = p.inDoubt {
            dropped += doubt.strokes.drop(downTo: max(0, limit - doubt.changes.count - p.changes.count - p.strokes.frames))
            p.inDoubt = doubt
        }
        dropped += p.strokes.drop(downTo: max(0, limit - p.changes.count - (p.inDoubt?.count ?? 0)))
        var excess = p.count - limit
        if excess > 0, var doubt = p.inDoubt {
            let cut = min(excess, doubt.changes.count)
            doubt.changes.removeFirst(cut)
            (dropped, excess) = (dropped + cut, excess - cut)
            p.inDoubt = doubt.count == 0 ? nil : doubt
        }
        if excess > 0 {
            p.changes.removeFirst(excess)
            dropped += excess
        }
        return dropped
    }

    private func reportDropped(_ dropped: Int) {
        if dropped > 0 {
            totals.withLock { $0.droppedChanges += dropped }
            logger.error("store unreachable for too long: oldest changes dropped", metadata: ["dropped": "\(dropped)"])
        }
    }

    func countFenced(_ rooms: Int) { totals.withLock { $0.fencedRooms += rooms } }
}
