import DrawProtocol
import Logging
import NIOCore
import Rooms

extension DrawServerRuntime {
    /// How often a node on a shared store looks for drawings removed, players banned and
    /// gallery settings changed on other nodes.
    static let removalWatchInterval: Duration = .seconds(2)

    /// On a shared store (`--store`): drawings a moderator removed on another node leave
    /// this node's shelf of recent drawings and its image cache within
    /// `removalWatchInterval`, so they answer 404 here too. The node that removes one drops
    /// it at once. Runs until cancelled (`drain`).
    ///
    /// It polls: other nodes' removals are only seen by asking the store. The interval is
    /// game time (the server's clock); the windows are wall-clock milliseconds, because
    /// that is what the nodes write into the store.
    func watchRemovals(_ postgres: PostgresGameStore) -> Task<Void, Never> {
        let (clock, loop) = (server.clock, eventLoopGroup.any())
        return Task { [weak self] in
            // Overlapping windows: the nodes' wall clocks need not agree exactly.
            var since = GameDatabase.wallClockMs - 10_000
            while !Task.isCancelled {
                await clock.sleep(for: Self.removalWatchInterval, on: loop)
                guard !Task.isCancelled, let self else { return }
                let started = GameDatabase.wallClockMs
                guard let removed = try? await postgres.removedDrawings(sinceMs: since) else { continue }
                for id in removed where !self.server.drawings.isRemoved(id) {
                    self.server.drawings.remove(id)
                    self.drawingImages.remove(id)
                }
                await self.takeModeration(from: postgres, sinceMs: since)
                since = started - 10_000
            }
        }
    }

    /// Start-up: the stored bans and gallery settings (docs/PROTOCOL.md 10.2, 10.5).
    func loadModeration(from store: any ModerationArchive) async throws {
        let changes = try await store.moderationChanges(sinceMs: 0)
        server.moderation.apply(changes, now: server.clock.now, wallMs: GameDatabase.wallClockMs)
        logger.info("moderation loaded", metadata: ["bans": "\(changes.bans.count)", "gallery settings": "\(changes.listed.count)"])
    }

    /// On a shared store, with the removals: bans and gallery settings made on other nodes
    /// (re-reading this node's own is harmless). A player banned elsewhere leaves its room
    /// here too and is refused from then on.
    func takeModeration(from store: any ModerationArchive, sinceMs: Int64) async {
        guard let changes = try? await store.moderationChanges(sinceMs: sinceMs) else { return }
        let banned = server.moderation.apply(changes, now: server.clock.now, wallMs: GameDatabase.wallClockMs)
        for player in banned {
            if server.roomOf(player)?.expel(player, reason: .banned) == true {
                logger.info("player banned on another node left its room", metadata: ["player": "\(player)"])
            }
        }
    }
}
