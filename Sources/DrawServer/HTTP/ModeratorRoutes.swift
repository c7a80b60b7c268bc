import Canvas
import Hummingbird
import NIOCore
import Rooms

extension DrawServerRuntime {
    /// Protocol section 6: room list, snapshots, strokes, kick, close.
    func addModeratorRoutes(to router: Router<DrawRequestContext>) {
        let auth = ModeratorAuth(token: configuration.moderatorToken)
        let api = router.group("api/rooms")

        api.get { request, _ -> Response in
            let rooms: [RoomSummary]
            switch auth.check(request) {
            case .anonymous: rooms = self.server.publicRooms()
            case .moderator: rooms = self.server.withLobby { $0.allRooms() }
            case .refused: throw HTTPError(.unauthorized)
            }
            var body: [UInt8] = [UInt8(ascii: "[")]
            for (i, room) in rooms.enumerated() {
                if i > 0 { body.append(UInt8(ascii: ",")) }
                body += room.jsonBytes()
            }
            body.append(UInt8(ascii: "]"))
            return Self.response(body, contentType: "application/json")
        }

        api.get(":code") { request, context -> Response in
            try auth.require(request)
            let room = try self.room(context)
            var body = room.view(now: self.server.clock.now).jsonBytes()
            // On a shared store: the node that runs the room (ids are plain ASCII, see
            // `ServeCommand.isNodeID`).
            let cluster = self.server.configuration.cluster
            if cluster.store != nil, body.last == UInt8(ascii: "}") {
                body.removeLast()
                body += Array(#","node":"\#(cluster.nodeID)"}"#.utf8)
            }
            return Self.response(body, contentType: "application/json")
        }

        api.get(":code/canvas.png") { request, context -> Response in
            try auth.require(request)
            return try await self.snapshot(request, context, format: "png")
        }

        api.get(":code/canvas.ppm") { request, context -> Response in
            try auth.require(request)
            return try await self.snapshot(request, context, format: "ppm")
        }

        api.get(":code/strokes") { request, context -> Response in
            try auth.require(request)
            let log = try self.room(context).strokeLog
            return Self.response(Array(log.ndjson().utf8), contentType: "application/x-ndjson")
        }

        api.post(":code/kick/:playerId") { request, context -> Response in
            try auth.require(request)
            let room = try self.room(context)
            let player = PlayerID(try context.parameters.require("playerId"))
            guard room.expel(player) else { throw HTTPError(.notFound, message: "no such player in this room") }
            return Response(status: .noContent)
        }

        api.delete(":code") { request, context -> Response in
            try auth.require(request)
            try self.room(context).close()
            return Response(status: .noContent)
        }
    }

    private func room(_ context: DrawRequestContext) throws -> LiveRoom {
        let text = try context.parameters.require("code")
        guard let code = RoomCode(parsing: text), let room = server.room(code) else {
            throw HTTPError(.notFound, message: "no such room")
        }
        return room
    }

    /// Renders off the room: the actor only hands out a copy of its drawing.
    private func snapshot(_ request: Request, _ context: DrawRequestContext, format: String) async throws -> Response {
        let room = try room(context)
        let scale = try request.uri.queryParameters["scale"].map { text -> Int in
            guard let value = Int(text), (1...4).contains(value) else { throw HTTPError(.badRequest, message: "scale must be 1 to 4") }
            return value
        } ?? 1
        let maxSide = try request.uri.queryParameters["max"].map { text -> Int in
            guard let value = Int(text), (8...8192).contains(value) else { throw HTTPError(.badRequest, message: "max must be 8 to 8192") }
            return value
        }
        let canvas = room.canvasState
        let key = SnapshotCache.Key(
            room: room.code.rawValue, generation: canvas.generation, frames: canvas.frames,
            format: format, scale: scale, maxSide: maxSide
        )
        let bytes = snapshots.bytes(for: key) {
            var raster = Renderer.render(canvas.drawing)
            if scale > 1 { raster = raster.scaled(by: scale) }
            if let maxSide { raster = raster.fitted(maxSide: maxSide) }
            return format == "png" ? PNGEncoder.encode(raster) : PPMEncoder.encode(raster)
        }
        return Self.response(bytes, contentType: format == "png" ? "image/png" : "image/x-portable-pixmap")
    }

    static func response(_ bytes: [UInt8], contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
