import Canvas
import DrawProtocol
import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1
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
            case .moderator:
                if self.server.configuration.cluster.store != nil {
                    return Self.response(self.clusterRoomList(), contentType: "application/json")
                }
                rooms = self.server.withLobby { $0.allRooms() }
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
            if let answer = try await self.forwardToOwner(request, context) { return answer }
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
            if let answer = try await self.forwardToOwner(request, context) { return answer }
            return try await self.snapshot(request, context, format: "png")
        }

        api.get(":code/canvas.ppm") { request, context -> Response in
            try auth.require(request)
            if let answer = try await self.forwardToOwner(request, context) { return answer }
            return try await self.snapshot(request, context, format: "ppm")
        }

        api.get(":code/strokes") { request, context -> Response in
            try auth.require(request)
            if let answer = try await self.forwardToOwner(request, context) { return answer }
            let log = try self.room(context).strokeLog
            return Self.response(Array(log.ndjson().utf8), contentType: "application/x-ndjson")
        }

        api.post(":code/kick/:playerId") { request, context -> Response in
            try auth.require(request)
            if let answer = try await self.forwardToOwner(request, context) { return answer }
            let room = try self.room(context)
            let player = PlayerID(try context.parameters.require("playerId"))
            guard room.expel(player) else { throw HTTPError(.notFound, message: "no such player in this room") }
            return Response(status: .noContent)
        }

        api.delete(":code") { request, context -> Response in
            try auth.require(request)
            if let answer = try await self.forwardToOwner(request, context) { return answer }
            try self.room(context).close()
            return Response(status: .noContent)
        }
    }

    /// A room another node runs: the request goes to that node (its advertised URL, from
    /// `ClusterBus`) and its answer comes back as it is. Nil for a room this node runs, one
    /// nobody runs, or a request that was already forwarded once.
    private func forwardToOwner(_ request: Request, _ context: DrawRequestContext) async throws -> Response? {
        guard let bus, let text = context.parameters.get("code"), let code = RoomCode(parsing: text), server.room(code) == nil,
              !request.headers.contains(where: { $0.name.canonicalName == NodeForwarder.forwardedHeader.lowercased() }),
              let node = await server.remoteRooms.findOwner(of: code), let base = bus.url(of: node)
        else { return nil }
        let forwarder = NodeForwarder(eventLoopGroup: eventLoopGroup)
        let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        do {
            let answer = try await forwarder.forward(
                method: request.method == .post ? .POST : request.method == .delete ? .DELETE : .GET,
                base: base, target: target, authorization: request.headers[.authorization], from: configuration.cluster.nodeID
            )
            var headers = HTTPFields()
            if let type = answer.contentType { headers[.contentType] = type }
            headers[.cacheControl] = "no-store"
            return Response(status: HTTPResponse.Status(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        } catch {
            logger.warning("moderator request not forwarded", metadata: ["room": "\(code)", "node": "\(node)", "error": "\(error)"])
            throw HTTPError(.badGateway, message: "the node running room \(code) (\(node)) did not answer")
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
