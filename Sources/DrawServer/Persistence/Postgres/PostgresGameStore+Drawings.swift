import Canvas
import DrawProtocol
import Logging
import PostgresNIO
import Rooms

/// The gallery's columns and tables on PostgreSQL, as SQLite's "v5 gallery" (plus the
/// drawing id, which SQLite got in v4). Numbered from 10 so migrations added meanwhile by
/// other work (3, 4...) never take the same number.
extension PostgresSchema {
    static let galleryMigrations: [(version: Int, sql: [String])] = [
        (10, [
            "ALTER TABLE turn ADD COLUMN drawing_id TEXT",
            "CREATE UNIQUE INDEX turn_by_drawing ON turn (drawing_id)",
            "ALTER TABLE turn ADD COLUMN public BOOLEAN NOT NULL DEFAULT false",
            "ALTER TABLE turn ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
            "ALTER TABLE turn ADD COLUMN drawer_name TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE turn ADD COLUMN opted_out BOOLEAN NOT NULL DEFAULT false",
            "CREATE INDEX turn_listed ON turn (public, opted_out, id) WHERE drawing_id IS NOT NULL",
            """
            CREATE TABLE drawing_player (
                drawing_id TEXT NOT NULL,
                player_id TEXT NOT NULL,
                PRIMARY KEY (drawing_id, player_id)
            )
            """,
            "CREATE INDEX drawing_player_by_player ON drawing_player (player_id)",
            """
            CREATE TABLE removed_drawing (
                drawing_id TEXT PRIMARY KEY,
                removed_at BIGINT NOT NULL
            )
            """,
        ]),
    ]
}

extension PostgresGameStore: DrawingArchive {
    /// Adds the gallery columns to the turns the batch just inserted (in its transaction):
    /// the drawing id, public, language, drawer name, opt-out, and who may list it. A
    /// drawing a moderator removed before its turn got here is deleted at once.
    static func writeDrawings(_ turns: [TurnRecord], on connection: PostgresConnection, logger: Logger) async throws {
        var wrote = false
        for record in turns {
            // Reports of this canvas made while it was drawn name its drawing now (NULL: it
            // ended empty), in the batch's transaction: also on the node that took the room over.
            try await connection.query("""
                UPDATE report SET drawing_id = \(record.drawing?.rawValue), turn_ended = true
                WHERE turn_key = \(TurnKey(record).rawValue) AND NOT turn_ended
                """, logger: logger)
            guard let drawing = record.drawing?.rawValue else { continue }
            wrote = true
            try await connection.query("""
                UPDATE turn SET drawing_id = \(drawing), public = \(record.isPublic), language = \(record.language),
                    drawer_name = \(record.drawerName), opted_out = \(record.drawerOptedOut)
                WHERE id = (SELECT MAX(id) FROM turn WHERE room_code = \(record.roomCode.rawValue)
                            AND game = \(record.game) AND turn = \(record.turn))
                """, logger: logger)
            try await connection.query("""
                DELETE FROM turn WHERE drawing_id = \(drawing)
                    AND EXISTS (SELECT 1 FROM removed_drawing WHERE drawing_id = \(drawing))
                """, logger: logger)
            try await connection.query("""
                INSERT INTO drawing_player (drawing_id, player_id)
                SELECT \(drawing), u.player FROM UNNEST(\(record.players.map(\.rawValue))::text[]) AS u(player)
                WHERE EXISTS (SELECT 1 FROM turn WHERE drawing_id = \(drawing))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        if wrote {
            // The turns `--turn-retention` dropped take who may list them along.
            try await connection.query("""
                DELETE FROM drawing_player p WHERE NOT EXISTS (SELECT 1 FROM turn t WHERE t.drawing_id = p.drawing_id)
                """, logger: logger)
        }
    }

    func drawingLog(_ id: DrawingID) async throws -> StrokeLog? {
        for text in try await client.rows(
            "SELECT strokes FROM turn WHERE drawing_id = \(id.rawValue)", as: String.self, logger: logger
        ) {
            return try StrokeLog(ndjson: text)
        }
        return nil
    }

    func drawingDrawer(_ id: DrawingID) async throws -> (id: PlayerID, name: String)? {
        for (drawer, name) in try await client.rows(
            "SELECT drawer, drawer_name FROM turn WHERE drawing_id = \(id.rawValue)", as: (String, String).self, logger: logger
        ) {
            return (PlayerID(drawer), name)
        }
        return nil
    }

    func gallery(_ query: GalleryQuery) async throws -> GalleryPage {
        var tokenHash: String?
        if case .player(let hash) = query.scope { tokenHash = hash }
        let best = query.order == .best
        let rows = try await client.rows("""
            SELECT t.drawing_id, t.word, t.drawer_name, t.language, t.likes, t.dislikes, t.finished_at, t.public
            FROM turn t
            WHERE t.drawing_id IS NOT NULL
              AND CASE WHEN \(tokenHash)::text IS NULL THEN t.public AND NOT t.opted_out
                       ELSE EXISTS (SELECT 1 FROM drawing_player p JOIN player pl ON pl.id = p.player_id
                                    WHERE p.drawing_id = t.drawing_id AND pl.token_hash = \(tokenHash)::text) END
              AND (\(query.language)::text IS NULL OR t.language = \(query.language)::text)
              AND (\(query.word)::text IS NULL OR lower(t.word) = lower(\(query.word)::text))
            ORDER BY CASE WHEN \(best)::boolean THEN t.likes - t.dislikes END DESC NULLS LAST,
                     CASE WHEN \(best)::boolean THEN t.likes END DESC NULLS LAST, t.id DESC
            LIMIT \(query.perPage + 1) OFFSET \(query.offset)
            """, as: (String, String, String, String, Int, Int, Int64, Bool).self, logger: logger)
        var entries: [GalleryEntry] = []
        for (id, word, drawer, language, likes, dislikes, finishedAt, isPublic) in rows {
            entries.append(GalleryEntry(
                id: id, word: word, drawer: drawer, language: language, likes: likes, dislikes: dislikes,
                finishedAt: finishedAt, isPublic: isPublic
            ))
        }
        return GalleryPage(entries: entries, perPage: query.perPage)
    }

    func removeDrawing(_ id: DrawingID) async throws -> Bool {
        let now = GameDatabase.wallClockMs
        return try await client.withOpenTransaction(logger: logger) { [logger] connection in
            try await connection.query("""
                INSERT INTO removed_drawing (drawing_id, removed_at) VALUES (\(id.rawValue), \(now)) ON CONFLICT DO NOTHING
                """, logger: logger)
            try await connection.query("DELETE FROM drawing_player WHERE drawing_id = \(id.rawValue)", logger: logger)
            var removed = false
            for try await _ in try await connection.query(
                "DELETE FROM turn WHERE drawing_id = \(id.rawValue) RETURNING id", logger: logger
            ).decode(Int64.self) {
                removed = true
            }
            return removed
        }
    }
}

extension PostgresGameStore {
    /// Drawings removed since `sinceMs` (ms since 1970), on any node: the others drop them
    /// from memory (`DrawServerRuntime.watchRemovals`).
    func removedDrawings(sinceMs: Int64) async throws -> [DrawingID] {
        var ids: [DrawingID] = []
        for text in try await client.rows(
            "SELECT drawing_id FROM removed_drawing WHERE removed_at >= \(sinceMs)", as: String.self, logger: logger
        ) {
            if let id = DrawingID(parsing: text) { ids.append(id) }
        }
        return ids
    }
}
