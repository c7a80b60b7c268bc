import CoreMetrics
import DrawProtocol
import Foundation
import Logging
import Rooms
import Synchronization

extension PostgresGameStore {
    /// The store's fault state in the SQLite writer's terms, so `/readyz`, `/api/health`,
    /// `/metrics` and the moderator banner show a lost database the same way.
    var storageReport: StorageReport {
        let (statistics, waiting) = (self.statistics, pendingCount)
        return StorageReport(
            fault: statistics.fault, failingSince: statistics.failingSince,
            heldChanges: statistics.fault == nil ? 0 : waiting, heldBytes: statistics.fault == nil ? 0 : waiting * Self.bytesPerChange,
            commitFailures: statistics.failedCommits, droppedChanges: statistics.droppedChanges, refusingNewRooms: false
        )
    }

    /// What a waiting change is counted as in `drawserver_db_queued_bytes` (the queue is
    /// bounded in changes, `maxRetainedChanges`; a typical one is a frame or a snapshot).
    static let bytesPerChange = 256

    /// A commit failed: the fault starts (one log line), or goes on (none).
    func noteFailure(_ error: any Error) {
        let detail = StoreOpenError.reason(error)
        let started = updateHealth { statistics in
            defer { statistics.fault = StorageFault(.unreachable, detail: detail) }
            guard statistics.failingSince == nil else { return false }
            statistics.failingSince = Int64(Date().timeIntervalSince1970 * 1000)
            return true
        }
        tell(.commitFailed)
        if started {
            logger.error("storage failing: database unreachable; changes are kept and retried", metadata: ["error": "\(detail)"])
        }
    }

    /// A commit went through: a fault in progress clears (one log line).
    func noteSuccess() {
        let cleared = updateHealth { statistics in
            guard let since = statistics.failingSince else { return nil as Int64? }
            statistics.fault = nil
            statistics.failingSince = nil
            return since
        }
        if let since = cleared {
            let seconds = Double(Int64(Date().timeIntervalSince1970 * 1000) - since) / 1000
            logger.notice("storage recovered: held changes written", metadata: ["failing for s": "\(seconds)"])
        }
    }

    /// Gauges read when `/metrics` is asked.
    func updateGauges(_ metrics: ServerMetrics) {
        metrics.dbQueuedBytes.record(storageReport.heldBytes)
    }
}

/// A commit that has waited too long for the database (no connection can be made).
struct StalledCommit: Error, CustomStringConvertible {
    var waited: Duration
    var description: String { "no connection to the database for \(waited)" }
}
