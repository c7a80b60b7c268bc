import DrawProtocol
import Foundation
import Logging

/// What `/readyz`, `GET /api/health` and `/metrics` report of storage.
struct StorageReport: Sendable, Equatable {
    /// The fault in progress; nil while commits go through.
    var fault: StorageFault?
    /// Wall-clock milliseconds when the fault started.
    var failingSince: Int64?
    /// Changes held for retry, and their bytes (`drawserver_db_queued_bytes`).
    var heldChanges = 0
    var heldBytes = 0
    /// Failed commits since the server started (`drawserver_db_commit_failures_total`).
    var commitFailures = 0
    /// Changes given up since the server started: batches refused for a reason that cannot
    /// pass, and held changes still unwritten when a graceful stop ran out of patience.
    var droppedChanges = 0
    /// New rooms are refused (`storage_unavailable`): the held changes reached their bound.
    var refusingNewRooms = false
}

extension PersistenceWriter {
    /// The writer loop's own state; only `run` touches it.
    struct Loop: Sendable {
        var held = HeldChanges()
        /// A batch whose commit may have gone in (`StorageBackend.mayHaveCommitted`): tried
        /// again alone, under its id, before `held`, which holds what came after it.
        var doubt: InDoubt?
        var health: StorageHealth
        /// Flushes waiting for the held changes to be committed.
        var flushes: [CheckedContinuation<Bool, Never>] = []
        /// The rooms last told to the backend as held (`StorageBackend.holding`).
        var heldRooms: Set<RoomCode> = []
        /// The next batch's id. Random to start, so a restarted process's first batch does
        /// not repeat the last one its previous process wrote.
        var nextID = Int64.random(in: .min ... .max)

        var isHolding: Bool { doubt != nil || !held.isEmpty }
        var heldCount: Int { held.count + (doubt?.changes.count ?? 0) }
        var heldBytes: Int { held.bytes + (doubt?.changes.bytes ?? 0) }

        mutating func newID() -> Int64 {
            defer { nextID &+= 1 }
            return nextID
        }
    }

    struct InDoubt: Sendable {
        var id: Int64
        var changes: HeldChanges
    }

    /// How one commit attempt ended.
    enum Attempt {
        case committed(deferred: [Change])
        /// Failed for a reason that can pass: keep the batch and retry it.
        case held
        /// Failed, but may be in: retry it alone under the same id.
        case inDoubt
        /// Failed for a reason that cannot pass: given up.
        case dropped
    }

    static var wallClockMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Takes the waiting batch and commits it, behind whatever is held. Only the writer loop
    /// calls it, so batches reach the database in order. Returns whether a commit went through.
    @discardableResult
    func step(_ loop: inout Loop, urgent forced: Bool = false) async -> Bool {
        let (batch, taken) = takeBatch()
        let urgent = taken || forced
        for case .flushed(let continuation) in batch { loop.flushes.append(continuation) }
        let changes = batch.contains(where: { if case .flushed = $0 { true } else { false } })
            ? batch.filter { if case .flushed = $0 { false } else { true } }
            : batch
        var committed = false
        if !loop.isHolding {
            // The usual path: nothing held, the batch goes as it is.
            if !changes.isEmpty {
                let id = loop.newID()
                switch await attempt(StorageBatch(id: id, changes: changes), behind: changes.reduce(0) { $0 + $1.weight } >= configuration.maxBatch, &loop) {
                case .committed(let deferred):
                    committed = true
                    loop.held.append(deferred, at: Self.wallClockMs)
                // A heartbeat is no data: one that failed is not held (a stopping node
                // with nothing else to write exits cleanly), the next one says the same.
                case .held where Self.onlyHeartbeats(changes), .inDoubt where Self.onlyHeartbeats(changes): break
                case .held: loop.held.append(changes, at: Self.wallClockMs)
                case .inDoubt: loop.doubt = InDoubt(id: id, changes: HeldChanges(changes, at: Self.wallClockMs))
                case .dropped: break
                }
            }
        } else {
            loop.held.append(changes, at: Self.wallClockMs)
            perform(loop.health.handle(.holding(bytes: loop.heldBytes)), &loop)
            if urgent || loop.health.mayRetry(at: elapsed) {
                committed = await retryHeld(&loop)
            }
        }
        let report = (loop.heldCount, loop.heldBytes)
        publish { r in (r.heldChanges, r.heldBytes) = report }
        tellHeldRooms(&loop)
        // A flush makes the step urgent, so its batch was just tried: it learns how that went.
        let done = !loop.isHolding && !loop.health.isFailing
        for continuation in loop.flushes { continuation.resume(returning: done) }
        loop.flushes = []
        return committed
    }

    static func onlyHeartbeats(_ changes: [Change]) -> Bool {
        changes.allSatisfy { if case .heartbeat = $0 { true } else { false } }
    }

    /// Retries the batch in doubt alone, then, once it is settled, everything held behind it.
    private func retryHeld(_ loop: inout Loop) async -> Bool {
        var committed = false
        if let doubt = loop.doubt {
            let batch = StorageBatch(id: doubt.id, changes: doubt.changes.changesForCommit(now: Self.wallClockMs))
            switch await attempt(batch, behind: true, &loop) {
            case .committed(let deferred):
                committed = true
                loop.doubt = nil
                loop.held.prepend(deferred, at: Self.wallClockMs)
            case .held, .inDoubt, .dropped:
                return false
            }
        }
        guard !loop.held.isEmpty else { return committed }
        let id = loop.newID()
        switch await attempt(StorageBatch(id: id, changes: loop.held.changesForCommit(now: Self.wallClockMs)), behind: true, &loop) {
        case .committed(let deferred):
            loop.held.removeAll()
            loop.held.append(deferred, at: Self.wallClockMs)
            return true
        case .held, .dropped:
            return committed
        case .inDoubt:
            loop.doubt = InDoubt(id: id, changes: loop.held)
            loop.held = HeldChanges()
            return committed
        }
    }

    /// Tells the backend which rooms still have changes to write, when that changed.
    private func tellHeldRooms(_ loop: inout Loop) {
        guard loop.isHolding || !loop.heldRooms.isEmpty else { return }
        var rooms = loop.held.rooms
        if let doubt = loop.doubt { rooms.formUnion(doubt.changes.rooms) }
        // Changes that came meanwhile go behind the held ones: theirs count too.
        if !rooms.isEmpty { rooms.formUnion(pendingRooms) }
        guard rooms != loop.heldRooms else { return }
        loop.heldRooms = rooms
        backend.holding(rooms: rooms)
    }

    /// One commit; on failure, asks `StorageHealth` what to do and does it.
    private func attempt(_ batch: StorageBatch, behind: Bool, _ loop: inout Loop) async -> Attempt {
        let start = ContinuousClock.now
        // A commit that waits too long is reported while it goes on waiting: it may still
        // go in, so it is neither cancelled nor counted as failed.
        let watchdog = backend.stallLimit.map { limit in
            clock.schedule(limit) {
                let fault = self.backend.fault(for: StalledCommit(waited: limit))
                self.publish { r in
                    guard r.fault == nil else { return }
                    r.fault = fault
                    r.failingSince = Self.wallClockMs
                }
            }
        }
        defer { watchdog?.cancel() }
        do {
            let outcome = try await backend.commit(batch, behind: behind)
            count(batch.changes, took: ContinuousClock.now - start, onIdleThread: outcome.onIdleThread)
            perform(loop.health.handle(.committed(now: elapsed)), &loop, written: batch.changes.reduce(0) { $0 + $1.weight })
            // A stall reported while the commit waited, and no fault behind it: over.
            if watchdog != nil, !loop.health.isFailing {
                publish { r in
                    r.fault = nil
                    r.failingSince = nil
                }
            }
            return .committed(deferred: outcome.deferred)
        } catch {
            countFailure()
            let fault = backend.fault(for: error)
            let inDoubt = fault.isTransient && backend.mayHaveCommitted(error)
            perform(loop.health.handle(.failed(fault, now: elapsed)), &loop, written: batch.changes.reduce(0) { $0 + $1.weight })
            if !fault.isTransient { return .dropped }
            return inDoubt ? .inDoubt : .held
        }
    }

    private func perform(_ actions: [StorageHealth.Action], _ loop: inout Loop, written: Int = 0) {
        for action in actions {
            switch action {
            case .faultStarted(let fault):
                let consequence = fault.isTransient ? "changes are held and retried" : "the changes of failed commits are dropped"
                logger.error("storage failing: \(fault.kind.reason); \(consequence)", metadata: ["error": "\(fault.detail)"])
                publish { r in
                    r.fault = fault
                    r.failingSince = Self.wallClockMs
                }
            case .faultCleared(let fault, let lasted, let failures):
                logger.notice("storage recovered", metadata: [
                    "fault": "\(fault.kind.reason)", "lasted": "\(lasted)", "failed commits": "\(failures)",
                    "changes written": "\(written)",
                ])
                publish { r in
                    r.fault = nil
                    r.failingSince = nil
                }
            case .hold:
                publish { r in r.commitFailures += 1 }
            case .drop:
                // Held changes are given up too: what follows them would be written out of
                // order. (`written` counts those of them that were in the failed batch.)
                let dropped = max(written, loop.heldCount)
                publish { r in
                    r.commitFailures += 1
                    r.droppedChanges += dropped
                }
                loop.held.removeAll()
                loop.doubt = nil
            case .collapse(let firstTime):
                let result = loop.held.collapse(limit: configuration.health.heldBytesLimit, canvas: configuration.canvas)
                _ = loop.health.handle(.collapsed(bytes: result.bytesAfter))
                let metadata: Logger.Metadata = [
                    "before": "\(result.bytesBefore)", "after": "\(result.bytesAfter)", "superseded": "\(result.supersededChanges)", "canvases compacted": "\(result.compactedCanvases)",
                    "turns compacted": "\(result.compactedTurns)", "turn logs emptied": "\(result.emptiedTurns)",
                ]
                if firstTime {
                    logger.warning("storage queue reached its bound: held changes collapsed, new rooms refused until storage recovers", metadata: metadata)
                } else {
                    logger.debug("held changes collapsed", metadata: metadata)
                }
            case .refuseNewRooms(let refuse):
                publish { r in r.refusingNewRooms = refuse }
            }
        }
        // The latest cause is the one reported (a busy database may turn out to be full).
        if let fault = loop.health.fault { publish { r in r.fault = fault } }
    }

    /// After a graceful stop: keeps retrying what is held for `exitPatience`, then gives it up.
    func retryHeldBeforeExit(_ loop: inout Loop) async throws {
        let deadline = elapsed + configuration.exitPatience
        while loop.isHolding, elapsed < deadline {
            let retryAt = min(loop.health.retryAt ?? elapsed, deadline)
            if retryAt > elapsed { await clock.sleep(retryAt - elapsed) }
            await step(&loop, urgent: true)
        }
        for continuation in loop.flushes { continuation.resume(returning: !loop.isHolding) }
        loop.flushes = []
        guard !loop.isHolding else {
            let (changes, bytes) = (loop.heldCount, loop.heldBytes)
            logger.critical("storage still failing at exit: held changes are lost", metadata: [
                "changes": "\(changes)", "bytes": "\(bytes)", "fault": "\(loop.health.fault?.description ?? "?")",
            ])
            publish { r in r.droppedChanges += changes }
            backend.stop()
            throw UnwrittenChanges(changes: changes, bytes: bytes)
        }
    }
}

/// A commit that has waited too long for the database.
struct StalledCommit: Error, CustomStringConvertible {
    var waited: Duration
    var description: String { "no answer from the database for \(waited)" }
}

/// A graceful stop could not write the held changes.
struct UnwrittenChanges: Error, CustomStringConvertible {
    var changes: Int
    var bytes: Int
    var description: String { "storage failing at exit: \(changes) changes (\(bytes) bytes) could not be written" }
}
