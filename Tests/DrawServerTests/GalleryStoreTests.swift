import Canvas
import DrawProtocol
import Foundation
import GRDB
@testable import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// The gallery's visibility, filters, pagination and removal, as every store must keep
/// them: run on SQLite here and on PostgreSQL in `PostgresGalleryTests`.
enum GalleryContract {
    static let frame = strokeBytes(from: Point(x: 30, y: 40), to: Point(x: 600, y: 500), width: 25)
    static let ada = PlayerID("ada"), bob = PlayerID("bob"), eve = PlayerID("eve")

    struct Fixture {
        var ids: [String: DrawingID] = [:]
        var players: [PlayerRecord] = []
        var turns: [TurnRecord] = []
    }

    /// Five turns: `pub` (public, en, cat, Ada drew, Ada and Bob played), `optout` (public,
    /// de, but Bob opted out), `priv` (a private room of Ada and Bob), `best` (public, en,
    /// dog, 5 likes), and one with an empty canvas.
    static func fixture() -> Fixture {
        var random = RandomSource.seeded(11)
        var fixture = Fixture()
        let now = Timestamp.zero
        fixture.players = [
            PlayerRecord(id: ada, name: "Ada", tokenHash: "hash-ada", lastSeen: now),
            PlayerRecord(id: bob, name: "Bob", tokenHash: "hash-bob", lastSeen: now),
            PlayerRecord(id: eve, name: "Eve", tokenHash: "hash-eve", lastSeen: now),
        ]
        func turn(_ name: String?, room: String, turn: Int, drawer: PlayerID, word: String, isPublic: Bool,
                  language: String = "en", optedOut: Bool = false, likes: Int = 0) -> TurnRecord {
            let id = name.map { _ in DrawingID.random(using: &random) }
            if let name, let id { fixture.ids[name] = id }
            var record = TurnRecord(
                roomCode: RoomCode(parsing: room)!, game: 1, turn: turn, round: 1, drawer: drawer, word: word,
                reason: .allGuessed, scores: [ada: 10, bob: 20],
                strokes: StrokeLog(size: .standard, word: word, frames: [.init(at: 5, bytes: frame)]),
                ratings: RatingCounts(likes: likes, dislikes: 0), drawing: id
            )
            record.isPublic = isPublic
            record.language = language
            record.drawerName = drawer == ada ? "Ada" : "Bob"
            record.drawerOptedOut = optedOut
            return record
        }
        fixture.turns = [
            turn("pub", room: "PUBAAA", turn: 1, drawer: ada, word: "cat", isPublic: true),
            turn("optout", room: "PUBAAA", turn: 2, drawer: bob, word: "Hund", isPublic: true, language: "de", optedOut: true),
            turn("priv", room: "PRVAAA", turn: 1, drawer: ada, word: "moon", isPublic: false),
            turn("best", room: "PUBAAA", turn: 3, drawer: bob, word: "dog", isPublic: true, likes: 5),
            turn(nil, room: "PUBAAA", turn: 4, drawer: ada, word: "sun", isPublic: true),
        ]
        return fixture
    }

    /// Checks `archive` after `write` stored the fixture's players and turns; `write` is
    /// called again for a turn that arrives after its drawing was removed.
    static func check(_ archive: any DrawingArchive, write: ([PlayerRecord], [TurnRecord]) async throws -> Void) async throws {
        let f = fixture()
        try await write(f.players, f.turns)
        func ids(_ query: GalleryQuery) async throws -> [DrawingID?] {
            try await archive.gallery(query).entries.map { DrawingID(parsing: $0.id) }
        }
        let (pub, optout, priv, best) = (f.ids["pub"]!, f.ids["optout"]!, f.ids["priv"]!, f.ids["best"]!)

        // Public: only public rooms, never an opted-out drawer's; newest first, or by rating.
        #expect(try await ids(GalleryQuery()) == [best, pub])
        #expect(try await ids(GalleryQuery(order: .best)) == [best, pub])
        #expect(try await ids(GalleryQuery(language: "de")) == [])
        #expect(try await ids(GalleryQuery(language: "en", word: "CAT")) == [pub], "the word filter ignores case")
        let first = try await archive.gallery(GalleryQuery(page: 1, perPage: 1))
        #expect(first.entries.map(\.id) == [best.rawValue] && first.hasMore)
        let second = try await archive.gallery(GalleryQuery(page: 2, perPage: 1))
        #expect(second.entries.map(\.id) == [pub.rawValue] && !second.hasMore)
        let entry = try #require(first.entries.first)
        #expect(entry.word == "dog" && entry.drawer == "Bob" && entry.likes == 5 && entry.language == "en" && entry.isPublic)

        // A player's own list: every drawing of the turns it played, private ones too.
        #expect(try await ids(GalleryQuery(scope: .player(tokenHash: "hash-ada"))) == [best, priv, optout, pub])
        #expect(try await ids(GalleryQuery(scope: .player(tokenHash: "hash-eve"))) == [], "a private room's drawing is not listed to outsiders")
        #expect(try await ids(GalleryQuery(scope: .player(tokenHash: "no-such-token"))) == [])

        // Removal: the log, the listings and who may list it are gone, and a turn that
        // reaches the store after the removal is not written.
        #expect(try await archive.drawingLog(pub) != nil)
        #expect(try await archive.removeDrawing(pub))
        #expect(try await archive.drawingLog(pub) == nil)
        #expect(try await ids(GalleryQuery()) == [best])
        #expect(try await ids(GalleryQuery(scope: .player(tokenHash: "hash-ada"))) == [best, priv, optout])
        try await write([], [f.turns[0]])
        #expect(try await archive.drawingLog(pub) == nil, "a removed drawing never comes back")
        #expect(try await ids(GalleryQuery()) == [best])
        #expect(try await archive.removeDrawing(pub) == false)
    }
}

@Suite("Gallery on SQLite", .timeLimit(.minutes(1)))
struct GalleryStoreTests {
    @Test func visibilityFiltersPagesAndRemoval() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try GameDatabase(path: path)
        try await GalleryContract.check(database) { players, turns in
            let changes: [PersistenceWriter.Change] = players.map { .player($0) } + turns.map { .turn($0) }
            try await database.pool.write { db in try PersistenceWriter.apply(changes, to: db, retention: 100) }
        }
        let orphans = try await database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM drawing_player WHERE drawing_id NOT IN (SELECT drawing_id FROM turn WHERE drawing_id IS NOT NULL)")
        }
        #expect(orphans == 0, "a removed drawing's rows are all deleted")
    }

    @Test func retentionTakesWhoMayListADrawingAlong() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try GameDatabase(path: path)
        let f = GalleryContract.fixture()
        let changes: [PersistenceWriter.Change] = f.players.map { .player($0) } + f.turns.map { .turn($0) }
        try await database.pool.write { db in try PersistenceWriter.apply(changes, to: db, retention: 2) }
        let rows = try await database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM drawing_player") }
        // Only the last two turns are kept: `best` (two players) and the empty canvas (none).
        #expect(rows == 2)
        #expect(try await database.gallery(GalleryQuery()).entries.map(\.id) == [f.ids["best"]!.rawValue])
    }
}

@Suite("Gallery on PostgreSQL", .serialized, .enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct PostgresGalleryTests {
    @Test func visibilityFiltersPagesAndRemoval() async throws {
        let url = try await TestPostgres.freshDatabase()
        let store = WrittenStore(try await PostgresGameStore.open(url: url, nodeID: "gallery", logger: TestPostgres.logger))
        try await GalleryContract.check(store.store) { players, turns in
            for player in players { store.playerChanged(player) }
            for turn in turns { store.turnFinished(turn) }
            await store.commitPending()
            #expect(store.statistics.failedCommits == 0)
        }
        #expect(try await TestPostgres.integer(url, """
            SELECT COUNT(*) FROM drawing_player p WHERE NOT EXISTS (SELECT 1 FROM turn t WHERE t.drawing_id = p.drawing_id)
            """) == 0)
        await store.close()
    }
    /// A drawing removed on one node leaves the other node's memory (shelf and images).
    @Test func aRemovalOnOneNodeReachesTheOthers() async throws {
        let url = try await TestPostgres.freshDatabase()
        let one = try await PostgresGameStore.open(url: url, nodeID: "one", logger: TestPostgres.logger)
        let two = try await PostgresGameStore.open(url: url, nodeID: "two", logger: TestPostgres.logger)
        var configuration = ServerConfiguration()
        configuration.webRoot = nil
        let runtime = try DrawServerRuntime(configuration: configuration, logger: TestPostgres.logger, postgres: two)
        let f = GalleryContract.fixture()
        let record = f.turns[0]
        let id = try #require(record.drawing)
        runtime.server.drawings.keep(record)
        let key = DrawingImageCache.Key(id: id, kind: .png, scale: 1, maxSide: nil)
        runtime.drawingImages.store([1, 2, 3], for: key)
        let watch = runtime.watchRemovals(two)
        defer { watch.cancel() }
        _ = try await one.removeDrawing(id)
        #expect(try await two.removedDrawings(sinceMs: 0) == [id])
        try await waitUntil(seconds: 15) { runtime.server.drawings.isRemoved(id) }
        #expect(runtime.server.drawings.log(id) == nil)
        #expect(runtime.drawingImages.bytes(for: key) == nil)
        await one.close()
        await two.close()
    }
}
