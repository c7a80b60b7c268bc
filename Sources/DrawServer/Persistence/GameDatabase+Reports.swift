import DrawProtocol
import GRDB
import NIOPosix
import Rooms

/// Reports in SQLite (table `report`, migration "v6 reports"). Written at once on GRDB's
/// writer queue, not through the batch: a report is rare and the reporter waits for its
/// `reported`.
extension GameDatabase: ReportArchive {
    private static let columns = "id, filed_at, reason, reporter, reporter_name, reported, reported_name, room, drawing_id, chat_text, chat, strokes, turn_key, turn_ended"

    func storeReport(_ report: ReportDesk.Report) async throws {
        let row = try ReportRow(report)
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.write { db in
                try db.execute(sql: "INSERT INTO report (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                    row.id, row.filedAt, row.reason, row.reporter, row.reporterName, row.reported, row.reportedName,
                    row.room, row.drawing, row.chatText, row.chat, row.strokes, row.turn, row.turnEnded,
                ])
            }
        }
    }

    func openReports(limit: Int) async throws -> [ReportDesk.Report] {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM report WHERE closed_at IS NULL ORDER BY filed_at DESC, rowid DESC LIMIT ?", arguments: [limit])
                    .map { Self.reportRow($0).report }
            }
        }
    }

    func openReport(_ id: String) async throws -> ReportDesk.Report? {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.read { db in
                try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM report WHERE id = ? AND closed_at IS NULL", arguments: [id])
                    .map { Self.reportRow($0).report }
            }
        }
    }

    func closeReport(_ id: String, action: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.write { db in
                try db.execute(
                    sql: "UPDATE report SET closed_at = ?, action = ? WHERE id = ? AND closed_at IS NULL",
                    arguments: [Self.wallClockMs, action, id]
                )
                return db.changesCount > 0
            }
        }
    }

    func closeReports(about drawing: DrawingID) async throws {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.write { db in
                // The evidence of a removed drawing goes with it.
                try db.execute(
                    sql: "UPDATE report SET closed_at = ?, action = 'remove', strokes = NULL WHERE drawing_id = ?",
                    arguments: [Self.wallClockMs, drawing.rawValue]
                )
            }
        }
    }

    func linkReports(turn: TurnKey, to drawing: DrawingID?) async throws {
        try await NIOThreadPool.singleton.runIfActive {
            try self.pool.write { db in
                try db.execute(
                    sql: "UPDATE report SET drawing_id = ?, turn_ended = 1 WHERE turn_key = ? AND turn_ended = 0",
                    arguments: [drawing?.rawValue, turn.rawValue]
                )
            }
        }
    }

    private static func reportRow(_ row: Row) -> ReportRow {
        ReportRow(
            id: row[0], filedAt: row[1], reason: row[2], reporter: row[3], reporterName: row[4], reported: row[5],
            reportedName: row[6], room: row[7], drawing: row[8], chatText: row[9], chat: row[10], strokes: row[11],
            turn: row[12], turnEnded: row[13]
        )
    }
}
