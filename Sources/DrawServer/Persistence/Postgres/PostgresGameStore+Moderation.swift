import DrawProtocol
import Logging
import PostgresNIO
import Rooms

/// Bans and gallery settings on PostgreSQL (migration 12, as SQLite's v7): every node
/// reads them at start-up and polls for changes (`DrawServerRuntime.watchModeration`).
extension PostgresGameStore: ModerationArchive {
    func storeBan(_ player: PlayerID, untilMs: Int64) async throws {
        let now = GameDatabase.wallClockMs
        try await client.execute("""
            INSERT INTO ban (player_id, until_at, changed_at) VALUES (\(player.rawValue), \(untilMs), \(now))
            ON CONFLICT (player_id) DO UPDATE SET until_at = EXCLUDED.until_at, changed_at = EXCLUDED.changed_at
            """, logger: logger)
    }

    func storeListed(_ listed: Bool, for player: PlayerID) async throws {
        let now = GameDatabase.wallClockMs
        try await client.execute("""
            INSERT INTO gallery_setting (player_id, listed, changed_at) VALUES (\(player.rawValue), \(listed), \(now))
            ON CONFLICT (player_id) DO UPDATE SET listed = EXCLUDED.listed, changed_at = EXCLUDED.changed_at
            """, logger: logger)
    }

    func moderationChanges(sinceMs: Int64) async throws -> ModerationChanges {
        var changes = ModerationChanges()
        for (player, until) in try await client.rows(
            "SELECT player_id, until_at FROM ban WHERE changed_at >= \(sinceMs)", as: (String, Int64).self, logger: logger
        ) {
            changes.bans[PlayerID(player)] = until
        }
        for (player, listed) in try await client.rows(
            "SELECT player_id, listed FROM gallery_setting WHERE changed_at >= \(sinceMs)", as: (String, Bool).self, logger: logger
        ) {
            changes.listed[PlayerID(player)] = listed
        }
        return changes
    }
}
