import Canvas
import CoreMetrics
import Foundation
import GRDB
import Logging
import Rooms
import ServiceLifecycle
import Synchronization

/// Batches every change and commits it in one transaction every `interval` (or sooner
/// when `maxBatch` changes are waiting), so the game never waits for SQLite: the hot
/// path only appends to an in-memory list under a lock.
final class PersistenceWriter: GameStore, Service {
    struct Configuration: Sendable {
        /// The longest a change waits before it is committed.
        var interval: Duration = .milliseconds(75)
        /// Commit early once this many changes are waiting.
        var maxBatch = 2_000
        /// Finished turns kept (with their stroke logs); older ones are deleted.
        var turnRetention = 5_000
        /// How long a commit waits for the idle-priority thread to start it before it runs
        /// on GRDB's queue instead.
        var idleStartPatience: Duration = .milliseconds(10)
    }

    enum Change: Sendable {
        // The large records are boxed so a change stays a few words wide: the hot path
        // appends one `.frame` per drawing frame, and every copy of a change (appending,
        // swapping the batch out, applying it) moves the enum's full inline size.
        indirect case player(PlayerRecord)
        indirect case room(RoomSnapshot)
        case frame(room: RoomCode, generation: Int, frame: StrokeLog.Frame)
        case roomClosed(RoomCode)
        indirect case turn(TurnRecord)
        indirect case game(GameRecord)
        case turnRated(TurnRating)
        /// Records that the server is alive, so the time a room spent running after its last
        /// write is known after a crash.
        case heartbeat
        /// Not a change: resumed once everything queued before it is committed.
        case flushed(CheckedContinuation<Void, Never>)
    }

    private struct Pending: Sendable {
        var changes: [Change] = []
        /// The last batch's storage, emptied, for the one after next: the hot path then
        /// appends into memory that is already allocated and touched instead of growing a
        /// fresh array (copying it at each doubling, into new pages) every batch.
        var spare: [Change] = []
        var waiter: CheckedContinuation<Void, Never>?
        var urgent = false
        var stopped = false
    }

    let database: GameDatabase
    let configuration: Configuration
    let logger: Logger
    let metrics: ServerMetrics
    private let pending = Mutex(Pending())
    /// Where commits run while the writer keeps up (see `IdleCommitThread`).
    private let commitThread = IdleCommitThread()

    /// Running totals of what was committed (benchmarks report them; metrics export them).
    struct Statistics: Sendable {
        var commits = 0
        var changes = 0
        var strokeFrames = 0
        var largestBatch = 0
        var commitSeconds = 0.0
        /// Commits made on the idle-priority thread (the others ran on GRDB's queue because
        /// the writer had fallen behind).
        var idleCommits = 0
    }

    private let totals = Mutex(Statistics())

    var statistics: Statistics { totals.withLock { $0 } }

    /// The capacity of the emptied batch waiting to be reused.
    var spareCapacity: Int { pending.withLock { $0.spare.capacity } }

    init(database: GameDatabase, configuration: Configuration = Configuration(), metrics: ServerMetrics, logger: Logger) {
        self.database = database
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
    }

    // MARK: - GameStore (called from rooms and sessions, under their locks; never blocks)

    func playerChanged(_ record: PlayerRecord) { enqueue(.player(record)) }
    func roomChanged(_ snapshot: RoomSnapshot) { enqueue(.room(snapshot)) }
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame) {
        enqueue(.frame(room: room, generation: generation, frame: frame))
    }
    func roomClosed(_ code: RoomCode) { enqueue(.roomClosed(code)) }
    func turnFinished(_ record: TurnRecord) { enqueue(.turn(record)) }
    func gameFinished(_ record: GameRecord) { enqueue(.game(record)) }
    func turnRated(_ rating: TurnRating) { enqueue(.turnRated(rating)) }

    private func enqueue(_ change: Change) {
        let waiter = pending.withLock { p -> CheckedContinuation<Void, Never>? in
            p.changes.append(change)
            guard p.changes.count >= configuration.maxBatch, let waiter = p.waiter else { return nil }
            p.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    private func isDue(_ p: Pending) -> Bool { p.urgent || p.changes.count >= configuration.maxBatch }

    // MARK: - The writer loop

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var lastCommit = ContinuousClock.now
            while !Task.isCancelled {
                await self.waitForBatch()
                if ContinuousClock.now - lastCommit >= .seconds(1) { self.enqueue(.heartbeat) }
                if await self.commitPending() { lastCommit = ContinuousClock.now }
            }
        }
        // Whatever arrived last is written before the process exits.
        await commitPending()
        pending.withLock { $0.stopped = true }
        await commitPending()
        commitThread.stop()
    }

    /// Returns once everything queued so far is committed.
    func flush() async {
        await withCheckedContinuation { continuation in
            let (stopped, waiter) = pending.withLock { p -> (Bool, CheckedContinuation<Void, Never>?) in
                guard !p.stopped else { return (true, nil) }
                p.changes.append(.flushed(continuation))
                p.urgent = true
                defer { p.waiter = nil }
                return (false, p.waiter)
            }
            if stopped { continuation.resume() }
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

    /// The largest emptied batch kept for reuse (a burst of turn ends can make one much
    /// larger than the usual frames; that one is freed).
    static let spareCapacityLimit = 16_384

    /// Only the writer loop commits, so batches reach the disk in order.
    @discardableResult
    private func commitPending() async -> Bool {
        // Swapped out, not copied: the lock the hot path appends under is held for a moment.
        var batch = pending.withLock { p -> [Change] in
            p.urgent = false
            var taken: [Change] = []
            swap(&taken, &p.spare)
            swap(&taken, &p.changes)
            return taken
        }
        guard !batch.isEmpty else {
            recycle(&batch)
            return false
        }
        let changes = batch.filter { if case .flushed = $0 { false } else { true } }
        if !changes.isEmpty {
            let start = ContinuousClock.now
            // A full batch means the writer has fallen behind (the core is busy), and a commit
            // the idle thread does not start within `idleStartPatience` would wait for idle
            // time that is not there: those commits run on GRDB's queue, whose share of a busy
            // core does not depend on idle time.
            let (database, retention) = (self.database, configuration.turnRetention)
            let transaction: @Sendable (Database) throws -> Void = { db in try Self.apply(changes, to: db, retention: retention) }
            var onIdleThread = false
            do {
                if changes.count < configuration.maxBatch {
                    onIdleThread = try await commitThread.run(startWithin: configuration.idleStartPatience) {
                        try database.pool.write(transaction)
                    } != nil
                }
                if !onIdleThread {
                    try await database.pool.write(transaction)
                }
            } catch {
                logger.error("database commit failed; changes dropped", metadata: ["error": "\(error)", "changes": "\(changes.count)"])
            }
            let took = ContinuousClock.now - start
            let frames = changes.count(where: { if case .frame = $0 { true } else { false } })
            metrics.dbBatchChanges.record(changes.count)
            metrics.dbCommitTime.recordNanoseconds(took.nanoseconds)
            metrics.dbStrokeFrames.increment(by: frames)
            totals.withLock { t in
                t.commits += 1
                t.changes += changes.count
                t.strokeFrames += frames
                t.largestBatch = max(t.largestBatch, changes.count)
                t.commitSeconds += Double(took.nanoseconds) / 1e9
                if onIdleThread { t.idleCommits += 1 }
            }
        }
        var flushed: [CheckedContinuation<Void, Never>] = []
        for case .flushed(let continuation) in batch { flushed.append(continuation) }
        // Handed back before a flush returns, so whoever flushed sees the writer at rest.
        recycle(&batch)
        for continuation in flushed { continuation.resume() }
        return !changes.isEmpty
    }

    /// Empties a committed batch and keeps its storage as the spare, unless a larger one is
    /// already kept or it is too large to keep.
    private func recycle(_ batch: inout [Change]) {
        batch.removeAll(keepingCapacity: true)
        guard batch.capacity <= Self.spareCapacityLimit else { return }
        pending.withLock { p in
            if p.spare.capacity < batch.capacity { swap(&p.spare, &batch) }
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
