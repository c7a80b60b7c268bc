import DrawProtocol
import Rooms

/// A page of the gallery: whose drawings, in which order, filtered how
/// (`GET /api/gallery`, docs/PROTOCOL.md section 9).
struct GalleryQuery: Sendable, Equatable {
    enum Order: String, Sendable {
        /// Newest first.
        case recent
        /// Likes minus dislikes, then likes, then newest.
        case best
    }

    enum Scope: Sendable, Equatable {
        /// Drawings from public rooms whose drawer did not opt out.
        case `public`
        /// Every drawing of every turn the player with this token took part in, public
        /// room or private, listed or not.
        case player(tokenHash: String)
    }

    static let perPageRange = 1...60
    static let maxPage = 1_000

    var scope = Scope.public
    var order = Order.recent
    /// A language code (`en`, `de`...), or nil for all.
    var language: String?
    /// The word exactly (case-insensitive for ASCII), or nil for all.
    var word: String?
    /// From 1.
    var page = 1
    var perPage = 24

    var offset: Int { (page - 1) * perPage }
}

/// One drawing as the gallery lists it.
struct GalleryEntry: Sendable, Equatable {
    var id: String
    var word: String
    /// The drawer's name when the turn ended.
    var drawer: String
    var language: String
    var likes: Int
    var dislikes: Int
    /// Milliseconds since 1970.
    var finishedAt: Int64
    var isPublic: Bool
}

/// At most `perPage` entries, and whether another page follows (the store reads one more).
struct GalleryPage: Sendable, Equatable {
    var entries: [GalleryEntry]
    var hasMore: Bool

    init(entries: [GalleryEntry], perPage: Int) {
        self.entries = Array(entries.prefix(perPage))
        self.hasMore = entries.count > perPage
    }

    static let empty = GalleryPage(entries: [], perPage: 1)
}
