import Canvas
import GRDB
import Rooms

extension GameDatabase {
    /// The stroke log of the stored turn whose drawing has this id, or nil (unknown, or
    /// already dropped by `--turn-retention`). Blocking: call it off the event loops.
    func drawingLog(_ id: DrawingID) throws -> StrokeLog? {
        let text = try pool.read { db in
            try String.fetchOne(db, sql: "SELECT strokes FROM turn WHERE drawing_id = ?", arguments: [id.rawValue])
        }
        guard let text else { return nil }
        return try StrokeLog(ndjson: text)
    }
}
