import Foundation
import GRDB

/// The SQLite file as the persistence writer's backend. While the writer keeps up, a commit
/// runs on a thread of its own at idle priority (`IdleCommitThread`); when it has fallen
/// behind, or the idle thread does not start within `idleStartPatience`, on GRDB's queue.
final class SQLiteBackend: StorageBackend {
    let database: GameDatabase
    let retention: Int
    let idleStartPatience: Duration
    private let commitThread: IdleCommitThread

    /// `clock` times `idleStartPatience`.
    init(database: GameDatabase, retention: Int, idleStartPatience: Duration, clock: ServerClock = ServerClock()) {
        self.database = database
        self.retention = retention
        self.idleStartPatience = idleStartPatience
        self.commitThread = IdleCommitThread(clock: clock)
    }

    func commit(_ batch: StorageBatch, behind: Bool) async throws -> StorageCommit {
        let (database, retention, changes) = (self.database, self.retention, batch.changes)
        let transaction: @Sendable (Database) throws -> Void = { db in
            try database.applyTestPageLimit(db)
            try PersistenceWriter.apply(changes, to: db, retention: retention)
        }
        // A commit the idle thread does not start within `idleStartPatience` would wait for
        // idle time that is not there: it runs on GRDB's queue, whose share of a busy core
        // does not depend on idle time.
        if !behind, try await commitThread.run(startWithin: idleStartPatience, { try database.pool.write(transaction) }) != nil {
            return StorageCommit(onIdleThread: true)
        }
        try await database.pool.write(transaction)
        return StorageCommit()
    }

    func fault(for error: any Error) -> StorageFault { StorageFault(sqlite: error) }

    func stop() { commitThread.stop() }
}

extension StorageFault {
    /// Classifies an SQLite error by its primary result code.
    init(sqlite error: any Error) {
        guard let error = error as? DatabaseError else {
            self.init(.other, detail: "\(error)")
            return
        }
        let detail = "SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
        switch error.resultCode {
        case .SQLITE_FULL: self.init(.diskFull, detail: detail)
        case .SQLITE_IOERR, .SQLITE_CANTOPEN: self.init(.ioError, detail: detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED: self.init(.busy, detail: detail)
        case .SQLITE_READONLY: self.init(.readOnly, detail: detail)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self.init(.corrupt, detail: detail)
        default: self.init(.other, detail: detail)
        }
    }
}
