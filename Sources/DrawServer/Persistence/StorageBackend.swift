import DrawProtocol

/// A database the persistence writer commits its batches to: the SQLite file
/// (`SQLiteBackend`) or PostgreSQL (`PostgresGameStore`). The writer above it batches, holds
/// the batches that fail for a reason that can pass, retries them in order, bounds what it
/// holds and reports the fault (`StorageHealth`), so every backend gets that behaviour by
/// implementing `commit` and `fault(for:)`.
protocol StorageBackend: Sendable {
    /// Writes `batch` in one transaction, in order; when it throws, none of it was written,
    /// unless `mayHaveCommitted` says it may have been. `behind`: the writer has fallen
    /// behind (a full batch, or held changes), so the commit must not wait for idle time.
    func commit(_ batch: StorageBatch, behind: Bool) async throws -> StorageCommit
    /// What an error thrown by `commit` means.
    func fault(for error: any Error) -> StorageFault
    /// Whether a commit that threw `error` may be in the database anyway (the answer to its
    /// `COMMIT` lost with the server): the writer then tries that batch again alone, under
    /// the same id, before anything newer, and the backend must write it at most once.
    func mayHaveCommitted(_ error: any Error) -> Bool
    /// The rooms the writer holds changes for that are not written yet (empty once it has
    /// caught up). Told after every step that changed them.
    func holding(rooms: Set<RoomCode>)
    /// How long a commit may wait before the writer reports it as a fault while it goes
    /// on waiting (a database server that stopped answering); nil: never.
    var stallLimit: Duration? { get }
    /// The writer has stopped: release threads and connections.
    func stop()
}

extension StorageBackend {
    func mayHaveCommitted(_ error: any Error) -> Bool { false }
    func holding(rooms: Set<RoomCode>) {}
    var stallLimit: Duration? { nil }
    func stop() {}
}

/// One transaction's changes, and the id the writer gave it: a batch tried again because
/// its commit may have gone in keeps its id.
struct StorageBatch: Sendable {
    var id: Int64
    var changes: [PersistenceWriter.Change]
}

/// What a commit did besides writing its batch.
struct StorageCommit: Sendable {
    /// It ran at idle priority (SQLite's commit thread).
    var onIdleThread = false
    /// Changes the backend could not take yet for a reason that is not a fault of the
    /// store (a room's lease not yet answered): the writer tries them again next, before
    /// anything newer.
    var deferred: [PersistenceWriter.Change] = []
}
