import Canvas
import DrawProtocol
import GRDB
import NIOPosix
import Rooms

/// Where finished drawings are read back from once they have left the in-memory shelf,
/// listed for the gallery, and removed by moderators. The SQLite database is one, the
/// PostgreSQL store another (`PostgresGameStore+Drawings.swift`); the runtime hands its
/// store to the routes as `drawingArchive`.
protocol DrawingArchive: Sendable {
    /// The stroke log of the stored turn whose drawing has this id, or nil (unknown,
    /// removed, or already dropped by `--turn-retention`).
    func drawingLog(_ id: DrawingID) async throws -> StrokeLog?
    /// One page of drawings the query's scope may see (docs/PROTOCOL.md section 9).
    func gallery(_ query: GalleryQuery) async throws -> GalleryPage
    /// Deletes the drawing's turn row (stroke log included) and who may list it, and
    /// remembers the id so a turn still waiting in a batch is never written. True when a
    /// stored turn had it.
    func removeDrawing(_ id: DrawingID) async throws -> Bool
    /// Who drew the stored drawing (id, name when the turn ended), or nil: for a report
    /// made from `/gallery` of a drawing no longer on the node's shelf.
    func drawingDrawer(_ id: DrawingID) async throws -> (id: PlayerID, name: String)?
}

extension GameDatabase: DrawingArchive {
    func drawingLog(_ id: DrawingID) async throws -> StrokeLog? {
        let text = try await NIOThreadPool.singleton.runIfActive {
            try self.pool.read { db in
                try String.fetchOne(db, sql: "SELECT strokes FROM turn WHERE drawing_id = ?", arguments: [id.rawValue])
            }
        }
        guard let text else { return nil }
        return try StrokeLog(ndjson: text)
    }

    func drawingDrawer(_ id: DrawingID) async throws -> (id: PlayerID, name: String)? {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.read { db in
                try Row.fetchOne(db, sql: "SELECT drawer, drawer_name FROM turn WHERE drawing_id = ?", arguments: [id.rawValue])
                    .map { (PlayerID($0[0] as String), $0[1] as String) }
            }
        }
    }

    func gallery(_ query: GalleryQuery) async throws -> GalleryPage {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.read { db in try Self.gallery(query, in: db) }
        }
    }

    func removeDrawing(_ id: DrawingID) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.write { db in
                try db.execute(
                    sql: "INSERT INTO removed_drawing (drawing_id, removed_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    arguments: [id.rawValue, Self.wallClockMs]
                )
                try db.execute(sql: "DELETE FROM drawing_player WHERE drawing_id = ?", arguments: [id.rawValue])
                try db.execute(sql: "DELETE FROM turn WHERE drawing_id = ?", arguments: [id.rawValue])
                return db.changesCount > 0
            }
        }
    }

    private static func gallery(_ query: GalleryQuery, in db: Database) throws -> GalleryPage {
        var conditions = ["t.drawing_id IS NOT NULL"]
        var arguments: [any DatabaseValueConvertible] = []
        var from = "turn t"
        switch query.scope {
        case .public:
            conditions.append("t.public = 1 AND t.opted_out = 0")
        case .player(let tokenHash):
            from += " JOIN drawing_player p ON p.drawing_id = t.drawing_id"
            conditions.append("p.player_id = (SELECT id FROM player WHERE token_hash = ?)")
            arguments.append(tokenHash)
        }
        if let language = query.language {
            conditions.append("t.language = ?")
            arguments.append(language)
        }
        if let word = query.word {
            conditions.append("t.word = ? COLLATE NOCASE")
            arguments.append(word)
        }
        let order = switch query.order {
        case .recent: "t.id DESC"
        case .best: "(t.likes - t.dislikes) DESC, t.likes DESC, t.id DESC"
        }
        arguments += [query.perPage + 1, query.offset]
        let rows = try Row.fetchAll(db, sql: """
            SELECT t.drawing_id, t.word, t.drawer_name, t.language, t.likes, t.dislikes, t.finished_at, t.public
            FROM \(from) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ? OFFSET ?
            """, arguments: StatementArguments(arguments))
        let entries = rows.map { row in
            GalleryEntry(
                id: row[0], word: row[1], drawer: row[2], language: row[3], likes: row[4], dislikes: row[5],
                finishedAt: row[6], isPublic: row[7]
            )
        }
        return GalleryPage(entries: entries, perPage: query.perPage)
    }
}

extension GameDatabase {
    /// People's drawings bots may replay: finished turns with a drawing that more players
    /// liked than disliked, best-rated first (then the most liked, then the newest).
    /// Logs that no longer parse are left out.
    func botDrawings(limit: Int) throws -> [(word: String, log: StrokeLog)] {
        let rows = try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT word, strokes FROM turn
                WHERE drawing_id IS NOT NULL AND likes > dislikes
                ORDER BY likes - dislikes DESC, likes DESC, id DESC LIMIT ?
                """, arguments: [limit])
        }
        return rows.compactMap { row in
            let word: String = row["word"]
            let text: String = row["strokes"]
            guard let log = try? StrokeLog(ndjson: text) else { return nil }
            return (word, log)
        }
    }
}
