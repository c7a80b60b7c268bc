import DrawProtocol
import Logging
import PostgresNIO
import Rooms

/// Reports on PostgreSQL, as SQLite's "v6 reports" (migration 11), so every node's
/// moderator sees the reports filed on any node.
extension PostgresSchema {
    static let reportMigrations: [(version: Int, sql: [String])] = [
        (11, [
            """
            CREATE TABLE report (
                id TEXT PRIMARY KEY,
                filed_at BIGINT NOT NULL,
                reason TEXT NOT NULL,
                reporter TEXT NOT NULL,
                reporter_name TEXT NOT NULL,
                reported TEXT,
                reported_name TEXT,
                room TEXT,
                drawing_id TEXT,
                chat_text TEXT,
                chat TEXT NOT NULL,
                strokes TEXT,
                closed_at BIGINT,
                action TEXT
            )
            """,
            "CREATE INDEX report_open ON report (filed_at) WHERE closed_at IS NULL",
            "CREATE INDEX report_by_drawing ON report (drawing_id)",
        ]),
        // As SQLite's "v7 report turns, bans and gallery settings".
        (12, [
            "ALTER TABLE report ADD COLUMN turn_key TEXT",
            "ALTER TABLE report ADD COLUMN turn_ended BOOLEAN NOT NULL DEFAULT false",
            "CREATE INDEX report_by_turn ON report (turn_key) WHERE turn_key IS NOT NULL",
            """
            CREATE TABLE ban (
                player_id TEXT PRIMARY KEY,
                until_at BIGINT NOT NULL,
                changed_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX ban_changed ON ban (changed_at)",
            """
            CREATE TABLE gallery_setting (
                player_id TEXT PRIMARY KEY,
                listed BOOLEAN NOT NULL,
                changed_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX gallery_setting_changed ON gallery_setting (changed_at)",
        ]),
    ]
}

extension PostgresGameStore: ReportArchive {
    func storeReport(_ report: ReportDesk.Report) async throws {
        let r = try ReportRow(report)
        try await client.execute("""
            INSERT INTO report (id, filed_at, reason, reporter, reporter_name, reported, reported_name, room, drawing_id, chat_text, chat, strokes, turn_key, turn_ended)
            VALUES (\(r.id), \(r.filedAt), \(r.reason), \(r.reporter), \(r.reporterName), \(r.reported), \(r.reportedName),
                    \(r.room), \(r.drawing), \(r.chatText), \(r.chat), \(r.strokes), \(r.turn), \(r.turnEnded))
            """, logger: logger)
    }

    func openReports(limit: Int) async throws -> [ReportDesk.Report] {
        try await reports("""
            SELECT id, filed_at, reason, reporter, reporter_name, reported, reported_name, room, drawing_id, chat_text, chat, strokes, turn_key, turn_ended
            FROM report WHERE closed_at IS NULL ORDER BY filed_at DESC, id DESC LIMIT \(limit)
            """)
    }

    func openReport(_ id: String) async throws -> ReportDesk.Report? {
        try await reports("""
            SELECT id, filed_at, reason, reporter, reporter_name, reported, reported_name, room, drawing_id, chat_text, chat, strokes, turn_key, turn_ended
            FROM report WHERE id = \(id) AND closed_at IS NULL
            """).first
    }

    func closeReport(_ id: String, action: String) async throws -> Bool {
        let now = GameDatabase.wallClockMs
        var closed = false
        for _ in try await client.rows("""
            UPDATE report SET closed_at = \(now), action = \(action) WHERE id = \(id) AND closed_at IS NULL RETURNING id
            """, as: String.self, logger: logger) {
            closed = true
        }
        return closed
    }

    func closeReports(about drawing: DrawingID) async throws {
        let now = GameDatabase.wallClockMs
        try await client.execute("""
            UPDATE report SET closed_at = \(now), action = 'remove', strokes = NULL WHERE drawing_id = \(drawing.rawValue)
            """, logger: logger)
    }

    func linkReports(turn: TurnKey, to drawing: DrawingID?) async throws {
        try await client.execute("""
            UPDATE report SET drawing_id = \(drawing?.rawValue), turn_ended = true WHERE turn_key = \(turn.rawValue) AND NOT turn_ended
            """, logger: logger)
    }

    private func reports(_ query: PostgresQuery) async throws -> [ReportDesk.Report] {
        try await client.withOpenConnection { [self] connection in try await reports(connection.query(query, logger: logger)) }
    }

    private func reports(_ rows: PostgresRowSequence) async throws -> [ReportDesk.Report] {
        var found: [ReportDesk.Report] = []
        for try await row in rows {
            let c = row.makeRandomAccess()
            found.append(ReportRow(
                id: try c[0].decode(String.self), filedAt: try c[1].decode(Int64.self), reason: try c[2].decode(String.self),
                reporter: try c[3].decode(String.self), reporterName: try c[4].decode(String.self),
                reported: try c[5].decode(String?.self), reportedName: try c[6].decode(String?.self),
                room: try c[7].decode(String?.self), drawing: try c[8].decode(String?.self),
                chatText: try c[9].decode(String?.self), chat: try c[10].decode(String.self), strokes: try c[11].decode(String?.self),
                turn: try c[12].decode(String?.self), turnEnded: try c[13].decode(Bool.self)
            ).report)
        }
        return found
    }
}
