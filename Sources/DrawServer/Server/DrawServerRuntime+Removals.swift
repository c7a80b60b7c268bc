import Rooms

extension DrawServerRuntime {
    /// How often a node on a shared store looks for drawings removed on other nodes.
    static let removalWatchInterval: Duration = .seconds(2)

    /// On a shared store (`--store`): drawings a moderator removed on another node leave
    /// this node's shelf of recent drawings and its image cache within
    /// `removalWatchInterval`, so they answer 404 here too. The node that removes one drops
    /// it at once. Runs until cancelled (`drain`).
    func watchRemovals(_ postgres: PostgresGameStore) -> Task<Void, Never> {
        Task { [weak self] in
            // Overlapping windows: the nodes' wall clocks need not agree exactly.
            var since = GameDatabase.wallClockMs - 10_000
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.removalWatchInterval)
                guard let self else { return }
                let started = GameDatabase.wallClockMs
                guard let removed = try? await postgres.removedDrawings(sinceMs: since) else { continue }
                for id in removed where !self.server.drawings.isRemoved(id) {
                    self.server.drawings.remove(id)
                    self.drawingImages.remove(id)
                }
                since = started - 10_000
            }
        }
    }
}
