import Canvas
import CoreMetrics
import DrawProtocol
import Foundation
import Logging
import Rooms
import ServiceLifecycle
import Synchronization

/// Batches every change and commits it in one transaction every `interval` (or sooner
/// when `maxBatch` changes are waiting), so the game never waits for the database: the hot
/// path only appends to an in-memory list under a lock.
///
/// A batch that fails for a reason that can pass (a full disk, an I/O error, a busy or
/// read-only database) is held, with every later batch behind it, and retried with backoff
/// until a commit takes them all (`StorageHealth` decides, `HeldChanges` holds); see
/// docs/PERSISTENCE.md, "Storage faults".
package final class PersistenceWriter: GameStore, Service {
    struct Configuration: Sendable {
        /// The longest a change waits before it is committed.
        var interval: Duration = .milliseconds(75)
        /// Commit early once this many changes are waiting. High enough that a busy node's
        /// batches are cut by `interval`, not by count: every commit costs a WAL sync and a
        /// stroke row per room it touches, whatever its size.
        var maxBatch = 16_384
        /// Finished turns kept (with their stroke logs); older ones are deleted.
        var turnRetention = 5_000
        /// How long a commit waits for the idle-priority thread to start it before it runs
        /// on GRDB's queue instead.
        var idleStartPatience: Duration = .milliseconds(10)
        /// The rooms' canvas, to compact held drawings at the bound.
        var canvas: CanvasSize = .standard
        /// Retries, and the bound on held changes (`--storage-queue-bytes`).
        var health = StorageHealth.Configuration()
        /// After a graceful stop, how long held changes are still retried before the
        /// process gives them up and exits non-zero.
        var exitPatience: Duration = .seconds(10)
    }

    enum Change: Sendable {
        // The large records are boxed so a change stays a few words wide: every copy of a
        // change (appending, swapping the batch out, applying it) moves the enum's full
        // inline size.
        indirect case player(PlayerRecord)
        indirect case room(RoomSnapshot)
        /// One drawing frame: what held changes keep (`HeldChanges` collapses frames).
        case frame(room: RoomCode, generation: Int, frame: StrokeLog.Frame)
        /// A room's drawing frames, packed as they were queued (`StrokeRuns`): what a
        /// batch carries of them, one run per canvas generation, oldest first.
        indirect case strokes(room: RoomCode, runs: [StrokeRuns.Run])
        case roomClosed(RoomCode)
        indirect case turn(TurnRecord)
        indirect case game(GameRecord)
        case turnRated(TurnRating)
        /// Records that the server is alive, so the time a room spent running after its last
        /// write is known after a crash.
        case heartbeat
        /// Not a change: resumed once everything queued before it is committed.
        case flushed(CheckedContinuation<Bool, Never>)

        /// The room the change writes, if any.
        var room: RoomCode? {
            switch self {
            case .room(let snapshot): RoomCode(parsing: snapshot.code)
            case .frame(let room, _, _), .strokes(let room, _), .roomClosed(let room): room
            case .turn(let record): record.roomCode
            case .game(let record): record.roomCode
            case .turnRated(let rating): rating.roomCode
            case .player, .heartbeat, .flushed: nil
            }
        }

        /// How many changes it stands for: a frame counts as one, packed or not.
        var weight: Int {
            if case .strokes(_, let runs) = self { return runs.reduce(0) { $0 + $1.frames } }
            return 1
        }

        /// The drawing frames it carries.
        var frames: Int {
            switch self {
            case .frame: 1
            case .strokes(_, let runs): runs.reduce(0) { $0 + $1.frames }
            default: 0
            }
        }
    }

    private struct Pending: Sendable {
        var changes: [Change] = []
        /// The drawing frames, packed per room and canvas generation as they come: one
        /// append of a frame's bytes while they are in cache, instead of a change that keeps
        /// them alive until the commit walks them again. A room's runs are cut into
        /// `changes` before its next snapshot or close (`cutStrokes`), the rest at the end
        /// of the batch, so the frames keep their place among the room's changes.
        var strokes = StrokeRuns()
        var waiter: CheckedContinuation<Void, Never>?
        var urgent = false
        var stopped = false

        /// Changes waiting, each frame counted as one.
        var count: Int { changes.count + strokes.frames }

        /// Moves `room`'s packed frames into the list, before a change of the room that
        /// must come after them.
        mutating func cutStrokes(of room: RoomCode) {
            guard strokes.contains(room: room.rawValue) else { return }
            changes.append(.strokes(room: room, runs: strokes.take(room: room.rawValue)))
        }
    }

    let backend: any StorageBackend
    let configuration: Configuration
    let logger: Logger
    let metrics: ServerMetrics
    private let pending = Mutex(Pending())
    /// What `/readyz`, `/api/health` and `/metrics` see of the writer's faults.
    private let published = Mutex(StorageReport())
    /// Read by every room creation, so an atomic rather than the report's lock.
    private let refusingNewRooms = Atomic<Bool>(false)
    let clock: ServerClock

    /// Running totals of what was committed (benchmarks report them; metrics export them).
    package struct Statistics: Sendable {
        package var commits = 0
        package var changes = 0
        package var strokeFrames = 0
        package var largestBatch = 0
        package var commitSeconds = 0.0
        /// Commits made on the idle-priority thread (the others ran on GRDB's queue because
        /// the writer had fallen behind).
        package var idleCommits = 0
        /// Commits that failed (each retry counts).
        package var failedCommits = 0
    }

    private let totals = Mutex(Statistics())

    package var statistics: Statistics { totals.withLock { $0 } }
    var storageReport: StorageReport { published.withLock { $0 } }

    /// Changes waiting for the next batch.
    var waitingCount: Int { pending.withLock { $0.count } }

    /// The rooms of the changes waiting for the next batch.
    var pendingRooms: Set<RoomCode> {
        pending.withLock { p in
            Self.rooms(of: p.changes).union(p.strokes.rooms.lazy.compactMap(RoomCode.init(parsing:)))
        }
    }

    /// The rooms `changes` write. A room's changes come in runs, so a room equal to the one
    /// before is not hashed again.
    static func rooms(of changes: [Change]) -> Set<RoomCode> {
        var rooms = Set<RoomCode>()
        var last: RoomCode?
        for change in changes {
            guard let room = change.room, room != last else { continue }
            rooms.insert(room)
            last = room
        }
        return rooms
    }

    init(
        backend: any StorageBackend, configuration: Configuration = Configuration(), metrics: ServerMetrics, logger: Logger,
        clock: ServerClock = ServerClock()
    ) {
        self.backend = backend
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
    }

    /// A writer to the SQLite file; `clock` also times the commit thread's start patience.
    convenience init(
        database: GameDatabase, configuration: Configuration = Configuration(), metrics: ServerMetrics, logger: Logger,
        clock: ServerClock = ServerClock()
    ) {
        let backend = SQLiteBackend(
            database: database, retention: configuration.turnRetention, idleStartPatience: configuration.idleStartPatience, clock: clock
        )
        self.init(backend: backend, configuration: configuration, metrics: metrics, logger: logger, clock: clock)
    }

    // MARK: - GameStore (called from rooms and sessions, under their locks; never blocks)

    func playerChanged(_ record: PlayerRecord, wakes: inout WakeUps) { enqueue(.player(record), wakes: &wakes) }
    func roomChanged(_ snapshot: RoomSnapshot, wakes: inout WakeUps) { enqueue(.room(snapshot), wakes: &wakes) }
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame, wakes: inout WakeUps) {
        LockAudit.acquired("the store's batch")
        let waiter = pending.withLock { p -> CheckedContinuation<Void, Never>? in
            p.strokes.add(frame, room: room.rawValue, generation: generation)
            return takeWaiterIfFull(&p)
        }
        if let waiter { wakes.resume(waiter) }
    }
    func roomClosed(_ code: RoomCode, wakes: inout WakeUps) { enqueue(.roomClosed(code), wakes: &wakes) }
    func turnFinished(_ record: TurnRecord, wakes: inout WakeUps) { enqueue(.turn(record), wakes: &wakes) }
    func gameFinished(_ record: GameRecord, wakes: inout WakeUps) { enqueue(.game(record), wakes: &wakes) }
    func turnRated(_ rating: TurnRating, wakes: inout WakeUps) { enqueue(.turnRated(rating), wakes: &wakes) }

    var newRoomRefusal: ProtocolError? {
        guard refusingNewRooms.load(ordering: .relaxed) else { return nil }
        return ProtocolError(.storageUnavailable, "the server cannot store new rooms right now (its storage is failing); join a room that is already open, or try again later")
    }

    /// Queues a change; a full batch names the writer loop's task in `wakes`.
    private func enqueue(_ change: Change, wakes: inout WakeUps) {
        LockAudit.acquired("the store's batch")
        let waiter = pending.withLock { p -> CheckedContinuation<Void, Never>? in
            switch change {
            // What a snapshot or a close does to the room's canvas comes after its frames.
            case .room, .roomClosed: if let room = change.room { p.cutStrokes(of: room) }
            default: break
            }
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

    private func isDue(_ p: Pending) -> Bool { p.urgent || p.count >= configuration.maxBatch }

    /// Time since the writer was made, for `StorageHealth`.
    var elapsed: Duration { clock.elapsed() }

    // MARK: - The writer loop

    package func run() async throws {
        var loop = await cancelWhenGracefulShutdown {
            var loop = Loop(health: StorageHealth(configuration: self.configuration.health))
            var lastCommit = self.elapsed
            while !Task.isCancelled {
                await self.waitForBatch()
                // Held changes are retried with `alive_at` anyway: no heartbeat piles up.
                if self.elapsed - lastCommit >= .seconds(1), !loop.isHolding {
                    var wakes = WakeUps()
                    self.enqueue(.heartbeat, wakes: &wakes)
                    wakes.run()
                }
                if await self.step(&loop) { lastCommit = self.elapsed }
            }
            return loop
        }
        // Whatever arrived last is written before the process exits.
        await step(&loop, urgent: true)
        pending.withLock { $0.stopped = true }
        await step(&loop, urgent: true)
        try await retryHeldBeforeExit(&loop)
        backend.stop()
    }

    /// Returns once everything queued so far is committed (true), or once a commit that
    /// included it failed (false: the changes are held and retried, or were given up).
    @discardableResult
    package func flush() async -> Bool {
        await withCheckedContinuation { continuation in
            let (stopped, waiter) = pending.withLock { p -> (Bool, CheckedContinuation<Void, Never>?) in
                guard !p.stopped else { return (true, nil) }
                p.changes.append(.flushed(continuation))
                p.urgent = true
                defer { p.waiter = nil }
                return (false, p.waiter)
            }
            if stopped { continuation.resume(returning: true) }
            waiter?.resume()
        }
    }

    private func waitForBatch() async {
        if pending.withLock({ isDue($0) }) { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: self.configuration.interval)
            }
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
            // Release the waiter if the timer won.
            let waiter = self.pending.withLock { p -> CheckedContinuation<Void, Never>? in
                defer { p.waiter = nil }
                return p.waiter
            }
            waiter?.resume()
            await group.waitForAll()
        }
    }

    /// Takes the waiting batch. Swapped out, not copied: the lock the hot path appends under
    /// is held for a moment.
    func takeBatch() -> (batch: [Change], urgent: Bool) {
        var strokes = StrokeRuns()
        var (taken, urgent) = pending.withLock { p in
            let urgent = p.urgent
            p.urgent = false
            var taken: [Change] = []
            swap(&taken, &p.changes)
            swap(&strokes, &p.strokes)
            return (taken, urgent)
        }
        // Frames whose room had nothing after them in the batch go at its end.
        for (room, runs) in strokes.takeAll() {
            guard let code = RoomCode(parsing: room) else { continue }
            taken.append(.strokes(room: code, runs: runs))
        }
        return (taken, urgent)
    }

    func publish(_ change: (inout StorageReport) -> Void) {
        let report = published.withLock { r in
            change(&r)
            return r
        }
        refusingNewRooms.store(report.refusingNewRooms, ordering: .relaxed)
        metrics.dbQueuedBytes.record(report.heldBytes)
    }

    func count(_ changes: [Change], took: Duration, onIdleThread: Bool) {
        let frames = changes.reduce(0) { $0 + $1.frames }
        let weight = changes.reduce(0) { $0 + $1.weight }
        metrics.dbBatchChanges.record(weight)
        metrics.dbCommitTime.recordNanoseconds(took.nanoseconds)
        metrics.dbStrokeFrames.increment(by: frames)
        totals.withLock { t in
            t.commits += 1
            t.changes += weight
            t.strokeFrames += frames
            t.largestBatch = max(t.largestBatch, weight)
            t.commitSeconds += Double(took.nanoseconds) / 1e9
            if onIdleThread { t.idleCommits += 1 }
        }
    }

    func countFailure() {
        metrics.dbCommitFailures.increment()
        totals.withLock { $0.failedCommits += 1 }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
