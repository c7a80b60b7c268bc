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
        var health: StorageHealth
        /// Flushes waiting for the held changes to be committed.
        var flushes: [CheckedContinuation<Bool, Never>] = []
    }

    static var wallClockMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Takes the waiting batch and commits it, behind whatever is held. Only the writer loop
    /// calls it, so batches reach the database in order. Returns whether a commit went through.
    @discardableResult
    func step(_ loop: inout Loop, urgent forced: Bool = false) async -> Bool {
        var (batch, urgent) = takeBatch()
        urgent = urgent || forced
        for case .flushed(let continuation) in batch { loop.flushes.append(continuation) }
        let changes = batch.contains(where: { if case .flushed = $0 { true } else { false } })
            ? batch.filter { if case .flushed = $0 { false } else { true } }
            : batch
        var committed = false
        if loop.held.isEmpty {
            // The usual path: nothing held, the batch goes as it is.
            if !changes.isEmpty {
                committed = await attempt(changes, behind: changes.count >= configuration.maxBatch, &loop)
                if !committed, loop.health.retryAt != nil { loop.held.append(changes, at: Self.wallClockMs) }
            }
        } else {
            loop.held.append(changes, at: Self.wallClockMs)
            perform(loop.health.handle(.holding(bytes: loop.held.bytes)), &loop)
            if urgent || loop.health.mayRetry(at: elapsed) {
                let now = Self.wallClockMs
                committed = await attempt(loop.held.changesForCommit(now: now), behind: true, &loop)
                if committed { loop.held.removeAll() }
            }
        }
        // Handed back before a flush returns, so whoever flushed sees the writer at rest.
        recycle(&batch)
        let report = (loop.held.count, loop.held.bytes)
        publish { r in (r.heldChanges, r.heldBytes) = report }
        // A flush makes the step urgent, so its batch was just tried: it learns how that went.
        let done = loop.held.isEmpty && !loop.health.isFailing
        for continuation in loop.flushes { continuation.resume(returning: done) }
        loop.flushes = []
        return committed
    }

    /// One commit; on failure, asks `StorageHealth` what to do and does it.
    private func attempt(_ changes: [Change], behind: Bool, _ loop: inout Loop) async -> Bool {
        let start = ContinuousClock.now
        do {
            let onIdleThread = try await backend.commit(changes, behind: behind)
            count(changes, took: ContinuousClock.now - start, onIdleThread: onIdleThread)
            perform(loop.health.handle(.committed(now: elapsed)), &loop, written: changes.count)
            return true
        } catch {
            countFailure()
            let fault = backend.fault(for: error)
            perform(loop.health.handle(.failed(fault, now: elapsed)), &loop, written: changes.count)
            return false
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
                // Held changes are given up too: what follows them would be written out of order.
                let dropped = written
                publish { r in
                    r.commitFailures += 1
                    r.droppedChanges += dropped
                }
                if !loop.held.isEmpty { loop.held.removeAll() }
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
        while !loop.held.isEmpty, elapsed < deadline {
            let retryAt = min(loop.health.retryAt ?? elapsed, deadline)
            if retryAt > elapsed { await clock.sleep(retryAt - elapsed) }
            await step(&loop, urgent: true)
        }
        for continuation in loop.flushes { continuation.resume(returning: loop.held.isEmpty) }
        loop.flushes = []
        guard loop.held.isEmpty else {
            let (changes, bytes) = (loop.held.count, loop.held.bytes)
            logger.critical("storage still failing at exit: held changes are lost", metadata: [
                "changes": "\(changes)", "bytes": "\(bytes)", "fault": "\(loop.health.fault?.description ?? "?")",
            ])
            publish { r in r.droppedChanges += changes }
            backend.stop()
            throw UnwrittenChanges(changes: changes, bytes: bytes)
        }
    }
}

/// A graceful stop could not write the held changes.
struct UnwrittenChanges: Error, CustomStringConvertible {
    var changes: Int
    var bytes: Int
    var description: String { "storage failing at exit: \(changes) changes (\(bytes) bytes) could not be written" }
}
