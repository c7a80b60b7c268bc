import Canvas
import DrawProtocol
import Foundation
import Hummingbird
import Logging
import NIOCore
import Rooms

extension DrawServerRuntime {
    /// The moderator's reports and drawing removal (docs/PROTOCOL.md section 9): open
    /// reports with their evidence, and the actions dismiss, remove, kick and ban.
    func addReportRoutes(to router: Router<DrawRequestContext>) {
        let auth = ModeratorAuth(token: configuration.moderatorToken)

        router.get("api/reports") { request, _ -> Response in
            try auth.require(request)
            let reports = try await self.server.moderation.openReports()
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return Self.response(Array(try encoder.encode(reports.map(ReportBody.init))), contentType: "application/json")
        }

        router.get("api/reports/:id/:part") { request, context -> Response in
            try auth.require(request)
            let report = try await self.openReport(context)
            let file = try context.parameters.require("part")
            guard let log = report.strokes, file == "snapshot.png" || file == "timelapse.apng" else {
                throw HTTPError(.notFound, message: "this report has no such evidence")
            }
            let query = try ImageQuery(request)
            let bytes = try await self.renderThread.run { () throws -> [UInt8] in
                if file == "timelapse.apng" {
                    var configuration = TimelapseEncoder.Configuration()
                    configuration.scale = query.scale
                    configuration.maxSide = query.maxSide
                    return try TimelapseEncoder.encode(log, configuration: configuration)
                }
                var raster = Renderer.render(try log.drawing())
                if query.scale > 1 { raster = raster.scaled(by: query.scale) }
                if let maxSide = query.maxSide { raster = raster.fitted(maxSide: maxSide) }
                return PNGEncoder.encode(raster)
            }
            return Self.response(bytes, contentType: file == "snapshot.png" ? "image/png" : "image/apng")
        }

        router.post("api/reports/:id/:part") { request, context -> Response in
            try auth.require(request)
            let report = try await self.openReport(context)
            let action = try context.parameters.require("part")
            switch action {
            case "dismiss":
                break
            case "remove":
                guard let drawing = report.drawing else {
                    throw HTTPError(.conflict, message: Self.noDrawing(report))
                }
                try await self.removeDrawing(drawing)
            case "kick":
                guard let player = report.reported, let room = self.server.roomOf(player), room.expel(player) else {
                    throw HTTPError(.notFound, message: "the reported player is in no room")
                }
            case "ban":
                guard let player = report.reported else { throw HTTPError(.conflict, message: "this report names no player") }
                // In memory first (refused and removed here at once), then in the store: a
                // restart and, on a shared store, the other nodes honour it (docs/PROTOCOL.md
                // 10.5). A store that fails answers 500 and leaves the report open to retry.
                self.server.moderation.ban(player, now: self.server.clock.now)
                _ = self.server.roomOf(player)?.expel(player, reason: .banned)
                try await self.server.moderation.storeBan(player, wallMs: GameDatabase.wallClockMs)
            default:
                throw HTTPError(.notFound, message: "actions: dismiss, remove, kick, ban")
            }
            _ = try await self.server.moderation.closeReport(report.id, action: action)
            self.logger.info("report closed", metadata: ["report": "\(report.id)", "action": "\(action)"])
            return Response(status: .noContent)
        }

        router.delete("api/drawings/:id") { request, context -> Response in
            try auth.require(request)
            guard let id = DrawingID(parsing: try context.parameters.require("id")) else {
                throw HTTPError(.notFound, message: "no such drawing")
            }
            try await self.removeDrawing(id)
            return Response(status: .noContent)
        }
    }

    /// A moderator removed the drawing: it answers 404 from now on (shelf and images on
    /// this node at once), its rendered images and its store rows are deleted, and every
    /// open report about it is closed.
    func removeDrawing(_ id: DrawingID) async throws {
        server.drawings.remove(id)
        drawingImages.remove(id)
        _ = try await drawingArchive?.removeDrawing(id)
        try await server.moderation.closeReports(about: id)
        logger.info("drawing removed", metadata: ["drawing": "\(id)"])
    }

    /// Why "remove" has no drawing to remove.
    static func noDrawing(_ report: ReportDesk.Report) -> String {
        guard report.turn != nil else { return "this report names no finished drawing" }
        if report.turnEnded { return "the reported turn ended with an empty canvas: there is no drawing to remove" }
        return "the reported turn has not ended yet: its drawing can be removed once it has"
    }

    private func openReport(_ context: DrawRequestContext) async throws -> ReportDesk.Report {
        let id = try context.parameters.require("id")
        guard id.count <= 40, let report = try await server.moderation.openReport(id) else {
            throw HTTPError(.notFound, message: "no such open report")
        }
        return report
    }
}

/// A report as the moderator page reads it.
private struct ReportBody: Encodable {
    struct Person: Encodable {
        var id: String
        var name: String
    }

    struct Line: Encodable {
        var from: String
        var name: String
        var text: String
    }

    var id: String
    var filedAt: Int64
    var reason: String
    var kind: String
    var reporter: Person
    var reported: Person?
    var room: String?
    var drawing: String?
    var chatText: String?
    var chat: [Line]
    var snapshot: String?
    var timelapse: String?
    /// A canvas reported during its turn: `pending` until the turn ends, then `ended`
    /// (`drawing` names it) or `empty`; nil otherwise.
    var turn: String?

    init(_ report: ReportDesk.Report) {
        id = report.id
        filedAt = report.filedAtMs
        reason = report.reason.rawValue
        kind = report.chatText == nil ? "drawing" : "chat"
        reporter = Person(id: report.reporter.rawValue, name: report.reporterName)
        reported = report.reported.map { Person(id: $0.rawValue, name: report.reportedName ?? "") }
        room = report.room?.rawValue
        drawing = report.drawing?.rawValue
        chatText = report.chatText
        chat = report.chat.map { Line(from: $0.from.rawValue, name: $0.name, text: $0.text) }
        snapshot = report.strokes == nil ? nil : "/api/reports/\(report.id)/snapshot.png"
        timelapse = report.strokes == nil ? nil : "/api/reports/\(report.id)/timelapse.apng"
        if report.turn != nil { turn = !report.turnEnded ? "pending" : report.drawing == nil ? "empty" : "ended" }
    }
}
