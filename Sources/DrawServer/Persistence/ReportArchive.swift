import Canvas
import DrawProtocol
import Foundation
import Rooms

/// Where open reports are kept so that they survive a restart and every node's moderator
/// sees them (docs/PROTOCOL.md section 9.3): the SQLite database and the PostgreSQL store
/// both conform. Without a store, `ReportDesk` alone keeps them in memory.
protocol ReportArchive: Sendable {
    /// Stores a filed report with its evidence.
    func storeReport(_ report: ReportDesk.Report) async throws
    /// Open reports, newest first, at most `limit`.
    func openReports(limit: Int) async throws -> [ReportDesk.Report]
    /// One open report, or nil (unknown or closed).
    func openReport(_ id: String) async throws -> ReportDesk.Report?
    /// Closes a report with the action taken; false when it was not open.
    func closeReport(_ id: String, action: String) async throws -> Bool
    /// Closes every open report about a removed drawing.
    func closeReports(about drawing: DrawingID) async throws
    /// The turn ended: reports made while it was drawn name its drawing from now on (nil:
    /// it ended with an empty canvas; the reports say so).
    func linkReports(turn: TurnKey, to drawing: DrawingID?) async throws
}

/// A report's columns, as both stores write and read them.
struct ReportRow: Sendable {
    var id: String
    var filedAt: Int64
    var reason: String
    var reporter: String
    var reporterName: String
    var reported: String?
    var reportedName: String?
    var room: String?
    var drawing: String?
    var chatText: String?
    /// JSON array of `ChatLine`.
    var chat: String
    /// NDJSON stroke log, or nil.
    var strokes: String?
    /// `TurnKey.rawValue` of a canvas reported during its turn, and whether that turn ended.
    var turn: String?
    var turnEnded: Bool

    init(_ report: ReportDesk.Report) throws {
        id = report.id
        filedAt = report.filedAtMs
        reason = report.reason.rawValue
        reporter = report.reporter.rawValue
        reporterName = report.reporterName
        reported = report.reported?.rawValue
        reportedName = report.reportedName
        room = report.room?.rawValue
        drawing = report.drawing?.rawValue
        chatText = report.chatText
        chat = String(decoding: try JSONEncoder().encode(report.chat), as: UTF8.self)
        strokes = report.strokes?.ndjson()
        turn = report.turn?.rawValue
        turnEnded = report.turnEnded
    }

    init(
        id: String, filedAt: Int64, reason: String, reporter: String, reporterName: String, reported: String?,
        reportedName: String?, room: String?, drawing: String?, chatText: String?, chat: String, strokes: String?,
        turn: String? = nil, turnEnded: Bool = false
    ) {
        (self.id, self.filedAt, self.reason, self.reporter, self.reporterName) = (id, filedAt, reason, reporter, reporterName)
        (self.reported, self.reportedName, self.room, self.drawing) = (reported, reportedName, room, drawing)
        (self.chatText, self.chat, self.strokes, self.turn, self.turnEnded) = (chatText, chat, strokes, turn, turnEnded)
    }

    /// The report; a row that cannot be read back (a reason this build does not know, a
    /// damaged log) keeps what can be read rather than hiding the report.
    var report: ReportDesk.Report {
        ReportDesk.Report(
            id: id, filedAtMs: filedAt, reason: ReportReason(rawValue: reason) ?? .other, reporter: PlayerID(reporter),
            reporterName: reporterName, reported: reported.map(PlayerID.init), reportedName: reportedName,
            room: room.flatMap { RoomCode(parsing: $0) }, drawing: drawing.flatMap { DrawingID(parsing: $0) }, chatText: chatText,
            chat: (try? JSONDecoder().decode([ChatLine].self, from: Data(chat.utf8))) ?? [],
            strokes: strokes.flatMap { try? StrokeLog(ndjson: $0) }, turn: turn.flatMap { TurnKey(parsing: $0) },
            turnEnded: turnEnded
        )
    }
}
