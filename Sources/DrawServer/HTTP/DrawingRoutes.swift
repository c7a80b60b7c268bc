import Canvas
import DrawProtocol
import Hummingbird
import NIOCore
import NIOPosix
import Rooms

extension DrawServerRuntime {
    /// `GET /d/{id}.png` and `GET /d/{id}.apng` (docs/PROTOCOL.md section 6): a finished
    /// turn's final PNG and APNG time-lapse. The id is the capability: no token is asked.
    /// Rendering is lazy, runs on a thread of its own at idle priority (never an event
    /// loop, and never taking a core from one) and is cached; the answer carries an ETag
    /// and may be cached by browsers and proxies.
    func addDrawingRoutes(to router: Router<DrawRequestContext>) {
        router.get("d/:file") { request, context -> Response in
            let file = try context.parameters.require("file")
            guard let (id, kind) = Self.drawingFile(file) else { throw HTTPError(.notFound, message: "no such drawing") }
            let query = try ImageQuery(request)
            let key = DrawingImageCache.Key(id: id, kind: kind, scale: query.scale, maxSide: query.maxSide)
            let etag = Self.etag(key)
            guard !self.server.drawings.isRemoved(id) else { throw HTTPError(.notFound, message: "no such drawing") }
            if let bytes = self.drawingImages.bytes(for: key) {
                return Self.imageResponse(bytes, kind: kind, etag: etag, request: request)
            }
            guard let log = try await self.drawingLog(id) else { throw HTTPError(.notFound, message: "no such drawing") }
            if request.headers[.ifNoneMatch] == etag {
                return Self.imageResponse([], kind: kind, etag: etag, request: request)
            }
            let bytes = try await self.renderThread.run {
                try Self.render(log, key: key)
            }
            self.drawingImages.store(bytes, for: key)
            return Self.imageResponse(bytes, kind: kind, etag: etag, request: request)
        }
    }

    /// From the shelf of recent drawings, else from the archive; never a removed one.
    private func drawingLog(_ id: DrawingID) async throws -> StrokeLog? {
        guard !server.drawings.isRemoved(id) else { return nil }
        if let log = server.drawings.log(id) { return log }
        guard let archive = drawingArchive else { return nil }
        return try await archive.drawingLog(id)
    }

    /// The store, when there is one: the SQLite database or the PostgreSQL store.
    var drawingArchive: (any DrawingArchive)? { database ?? postgres }

    /// `ID.png` or `ID.apng` with a well-formed id.
    static func drawingFile(_ file: String) -> (DrawingID, DrawingImageKind)? {
        guard let dot = file.lastIndex(of: "."),
              let kind = DrawingImageKind(rawValue: String(file[file.index(after: dot)...])),
              let id = DrawingID(parsing: file[..<dot])
        else { return nil }
        return (id, kind)
    }

    /// Scaled like the moderator canvas: `scaled(by:)`, then `fitted(maxSide:)`.
    static func render(_ log: StrokeLog, key: DrawingImageCache.Key) throws -> [UInt8] {
        switch key.kind {
        case .png:
            var raster = Renderer.render(try log.drawing())
            if key.scale > 1 { raster = raster.scaled(by: key.scale) }
            if let maxSide = key.maxSide { raster = raster.fitted(maxSide: maxSide) }
            return PNGEncoder.encode(raster)
        case .apng:
            var configuration = TimelapseEncoder.Configuration()
            configuration.scale = key.scale
            configuration.maxSide = key.maxSide
            return try TimelapseEncoder.encode(log, configuration: configuration)
        }
    }

    /// Images never change, so the key names the bytes; the version changes with the encoders.
    static func etag(_ key: DrawingImageCache.Key) -> String {
        "\"\(key.id.rawValue)-\(key.kind.rawValue)-\(key.scale)-\(key.maxSide ?? 0)-v1\""
    }

    /// One hour: long enough for a gallery, short enough that a removed drawing disappears.
    static let drawingCacheControl = "public, max-age=3600"

    private static func imageResponse(_ bytes: [UInt8], kind: DrawingImageKind, etag: String, request: Request) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = drawingCacheControl
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = kind.contentType
        return Response(status: .ok, headers: headers, body: .inPieces(bytes))
    }
}

/// `?scale=1..4` and `?max=8..8192`, as on the moderator canvas route.
struct ImageQuery {
    var scale = 1
    var maxSide: Int?

    init(_ request: Request) throws {
        if let text = request.uri.queryParameters["scale"] {
            guard let value = Int(text), Raster.scaleRange.contains(value) else {
                throw HTTPError(.badRequest, message: "scale must be 1 to 4")
            }
            scale = value
        }
        if let text = request.uri.queryParameters["max"] {
            guard let value = Int(text), (8...8192).contains(value) else {
                throw HTTPError(.badRequest, message: "max must be 8 to 8192")
            }
            maxSide = value
        }
    }
}
