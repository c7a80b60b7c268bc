import Canvas
import DrawProtocol
import Foundation
import Hummingbird
import NIOCore
import Rooms

extension DrawServerRuntime {
    /// The biggest body `POST /api/drawings/{id}/report` reads (`{"reason":"…"}`).
    static let galleryReportBodyLimit = 1_024

    /// `POST /api/drawings/{id}/report`: a report of a drawing from `/gallery` (or any page
    /// holding its link), by a player: the browser's stored player token as `Authorization:
    /// Bearer`, so it spends that player's report budget like an in-game report
    /// (docs/PROTOCOL.md section 10.3). The evidence is the drawing's stroke log, from the
    /// node's shelf of recent drawings or from the store.
    func addGalleryReportRoute(to router: Router<DrawRequestContext>) {
        router.post("api/drawings/:id/report") { request, context -> Response in
            guard let header = request.headers[.authorization], let token = ModeratorAuth.bearerToken(in: header),
                  token.utf8.count <= 128
            else { throw HTTPError(.unauthorized, message: "send your player token as Authorization: Bearer <token>") }
            guard let player = await self.player(holding: String(token)) else {
                throw HTTPError(.unauthorized, message: "unknown player token: play a game in this browser first")
            }
            var body = try await request.body.collect(upTo: Self.galleryReportBodyLimit)
            let bytes = body.readBytes(length: body.readableBytes) ?? []
            guard let reason = (try? JSONDecoder().decode(ReasonBody.self, from: Data(bytes)))?.reason.flatMap(ReportReason.init(rawValue:)) else {
                throw HTTPError(.badRequest, message: "send {\"reason\":R}, R one of \(ReportReason.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let id = DrawingID(parsing: try context.parameters.require("id")), !self.server.drawings.isRemoved(id),
                  let target = try await self.reportTarget(id)
            else { throw HTTPError(.notFound, message: "no such drawing") }
            guard target.drawer != player else { throw HTTPError(.forbidden, message: "you cannot report your own drawing") }
            let name = self.server.withLobby { $0.players[player]?.name } ?? ""
            let report = ReportDesk.Report(
                id: "", filedAtMs: GameDatabase.wallClockMs, reason: reason, reporter: player, reporterName: name,
                reported: target.drawer, reportedName: target.drawerName, room: nil, drawing: id, chatText: nil, chat: [],
                strokes: target.log
            )
            switch self.server.fileReport(report) {
            case .failure(let error):
                throw HTTPError(error.code == .reportLimited ? .tooManyRequests : .badRequest, message: error.message)
            case .success(let filed):
                await filed.stored?.value
                return Self.response(Array(#"{"id":"\#(filed.id)"}"#.utf8), contentType: "application/json", status: .created)
            }
        }
    }

    /// The player whose resume token this is: known here, or (several nodes) in the store.
    private func player(holding token: String) async -> PlayerID? {
        let hash = TokenHash.hex(token)
        if let known = server.withLobby({ $0.player(tokenHash: hash) }) { return known }
        guard let found = await server.remoteRooms.lookupPlayer(tokenHash: hash) else { return nil }
        server.adopt([found])
        return PlayerID(found.id)
    }

    /// A drawing's log and drawer: from the shelf, else from the store.
    private func reportTarget(_ id: DrawingID) async throws -> (log: StrokeLog, drawer: PlayerID, drawerName: String)? {
        if let shelved = server.drawings.shelved(id) { return shelved }
        guard let archive = drawingArchive, let drawer = try await archive.drawingDrawer(id),
              let log = try await archive.drawingLog(id)
        else { return nil }
        return (log, drawer.id, drawer.name)
    }
}

private struct ReasonBody: Decodable {
    var reason: String?
}
