import Canvas
import GRDB
import Rooms

/// Where finished drawings' stroke logs are read back from for `/d/ID.png` once they have
/// left the in-memory shelf. The SQLite database is one; another store (PostgreSQL)
/// conforms the same way and is handed to the runtime as its archive.
protocol DrawingArchive: Sendable {
    /// The stroke log of the stored turn whose drawing has this id, or nil (unknown, or
    /// already dropped by `--turn-retention`). Blocking: called on NIO's thread pool.
    func drawingLog(_ id: DrawingID) throws -> StrokeLog?
}

extension GameDatabase: DrawingArchive {
    func drawingLog(_ id: DrawingID) throws -> StrokeLog? {
        let text = try pool.read { db in
            try String.fetchOne(db, sql: "SELECT strokes FROM turn WHERE drawing_id = ?", arguments: [id.rawValue])
        }
        guard let text else { return nil }
        return try StrokeLog(ndjson: text)
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
