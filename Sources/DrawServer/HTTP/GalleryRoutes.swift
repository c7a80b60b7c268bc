import DrawProtocol
import Foundation
import Hummingbird
import NIOCore
import Rooms

extension DrawServerRuntime {
    /// `GET /api/gallery` (public), `GET /api/gallery/mine` (a player's token) and the
    /// `/gallery` page: docs/PROTOCOL.md section 9.
    func addGalleryRoutes(to router: Router<DrawRequestContext>) {
        router.get("api/gallery") { request, _ -> Response in
            let query = try GalleryQuery(request, scope: .public)
            return try await self.galleryResponse(query)
        }

        router.get("api/gallery/mine") { request, _ -> Response in
            // The player's own resume token: its drawings and those of every turn it played,
            // private rooms' included. A token the store does not know lists nothing.
            guard let header = request.headers[.authorization], let token = ModeratorAuth.bearerToken(in: header),
                  token.utf8.count <= 128
            else { throw HTTPError(.unauthorized, message: "send your player token as Authorization: Bearer <token>") }
            let query = try GalleryQuery(request, scope: .player(tokenHash: TokenHash.hex(String(token))))
            return try await self.galleryResponse(query)
        }

        // The page itself, so `/gallery` works without a trailing slash or `.html`.
        if let webRoot = configuration.webRoot {
            let page = URL(fileURLWithPath: webRoot).appendingPathComponent("gallery.html").path
            router.get("gallery") { _, _ -> Response in
                guard let bytes = FileManager.default.contents(atPath: page) else { throw HTTPError(.notFound) }
                return Self.response(Array(bytes), contentType: "text/html; charset=utf-8")
            }
        }
    }

    private func galleryResponse(_ query: GalleryQuery) async throws -> Response {
        // Without a store nothing is listed: only links work then (from the shelf).
        let page = try await drawingArchive?.gallery(query) ?? .empty
        let removed = page.entries.filter { DrawingID(parsing: $0.id).map(server.drawings.isRemoved) ?? true }
        let body = GalleryBody(
            drawings: page.entries.filter { !removed.contains($0) }.map(GalleryBody.Drawing.init),
            page: query.page, perPage: query.perPage, hasMore: page.hasMore
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Self.response(Array(try encoder.encode(body)), contentType: "application/json")
    }
}

/// The JSON of a gallery page.
private struct GalleryBody: Encodable {
    struct Drawing: Encodable {
        var id: String
        var png: String
        var timelapse: String
        var word: String
        var drawer: String
        var language: String
        var likes: Int
        var dislikes: Int
        var finishedAt: Int64
        var `public`: Bool

        init(_ entry: GalleryEntry) {
            id = entry.id
            png = "/d/\(entry.id).png"
            timelapse = "/d/\(entry.id).apng"
            word = entry.word
            drawer = entry.drawer
            language = entry.language
            likes = entry.likes
            dislikes = entry.dislikes
            finishedAt = entry.finishedAt
            self.public = entry.isPublic
        }
    }

    var drawings: [Drawing]
    var page: Int
    var perPage: Int
    var hasMore: Bool
}

extension GalleryQuery {
    /// `?sort=recent|best&lang=de&word=cat&page=2&per=24`; a bad value answers 400.
    init(_ request: Request, scope: Scope) throws {
        self.init(scope: scope)
        let parameters = request.uri.queryParameters
        if let text = parameters["sort"] {
            guard let order = Order(rawValue: String(text)) else { throw HTTPError(.badRequest, message: "sort must be recent or best") }
            self.order = order
        }
        if let text = parameters["lang"], !text.isEmpty {
            guard WordLanguage.codes.contains(String(text)) else { throw HTTPError(.badRequest, message: "unknown language") }
            language = String(text)
        }
        if let text = parameters["word"] {
            let word = String(text).trimmingCharacters(in: .whitespaces)
            guard word.count <= 100 else { throw HTTPError(.badRequest, message: "word is too long") }
            if !word.isEmpty { self.word = word }
        }
        if let text = parameters["page"] {
            guard let value = Int(text), (1...Self.maxPage).contains(value) else {
                throw HTTPError(.badRequest, message: "page must be 1 to \(Self.maxPage)")
            }
            page = value
        }
        if let text = parameters["per"] {
            guard let value = Int(text), Self.perPageRange.contains(value) else {
                throw HTTPError(.badRequest, message: "per must be 1 to \(Self.perPageRange.upperBound)")
            }
            perPage = value
        }
    }
}
