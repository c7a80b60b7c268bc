/// A database the persistence writer commits its batches to. The writer above it holds the
/// batches that fail for a reason that can pass, retries them in order, bounds what it holds
/// and reports the fault (`StorageHealth`), so every backend gets that behaviour by
/// implementing these two methods.
protocol StorageBackend: Sendable {
    /// Writes `changes` in one transaction, in order; when it throws, none of them was
    /// written. `behind`: the writer has fallen behind (a full batch, or held changes),
    /// so the commit must not wait for idle time. Returns whether it ran at idle priority.
    func commit(_ changes: [PersistenceWriter.Change], behind: Bool) async throws -> Bool
    /// What an error thrown by `commit` means.
    func fault(for error: any Error) -> StorageFault
    /// The writer has stopped: release threads and connections.
    func stop()
}

extension StorageBackend {
    func stop() {}
}
