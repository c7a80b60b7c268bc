import DrawProtocol
import GRDB
import NIOPosix
import Rooms

/// Bans and gallery settings in SQLite (tables `ban` and `gallery_setting`, migration "v7
/// report turns, bans and gallery settings"). Written at once on GRDB's writer queue, not
/// through the batch: both are rare.
extension GameDatabase: ModerationArchive {
    func storeBan(_ player: PlayerID, untilMs: Int64) async throws {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO ban (player_id, until_at, changed_at) VALUES (?, ?, ?)
                        ON CONFLICT (player_id) DO UPDATE SET until_at = excluded.until_at, changed_at = excluded.changed_at
                        """,
                    arguments: [player.rawValue, untilMs, Self.wallClockMs]
                )
            }
        }
    }

    func storeListed(_ listed: Bool, for player: PlayerID) async throws {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO gallery_setting (player_id, listed, changed_at) VALUES (?, ?, ?)
                        ON CONFLICT (player_id) DO UPDATE SET listed = excluded.listed, changed_at = excluded.changed_at
                        """,
                    arguments: [player.rawValue, listed, Self.wallClockMs]
                )
            }
        }
    }

    func moderationChanges(sinceMs: Int64) async throws -> ModerationChanges {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.read { db in
                var changes = ModerationChanges()
                for row in try Row.fetchAll(db, sql: "SELECT player_id, until_at FROM ban WHERE changed_at >= ?", arguments: [sinceMs]) {
                    changes.bans[PlayerID(row[0] as String)] = row[1]
                }
                for row in try Row.fetchAll(db, sql: "SELECT player_id, listed FROM gallery_setting WHERE changed_at >= ?", arguments: [sinceMs]) {
                    changes.listed[PlayerID(row[0] as String)] = row[1]
                }
                return changes
            }
        }
    }
}
