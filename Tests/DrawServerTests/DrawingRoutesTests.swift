import Canvas
import DrawProtocol
import Foundation
import GRDB
@testable import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

@Suite("Drawing images /d/ID.png and /d/ID.apng", .timeLimit(.minutes(1)))
struct DrawingRoutesTests {
    static let frame = strokeBytes(from: Point(x: 30, y: 40), to: Point(x: 600, y: 500), width: 25)

    /// Ada draws `frame` (if any), Bob guesses the word: the `turnEnd` Bob gets.
    static func finishedTurn(port: Int, frame: [UInt8]?) async throws -> [String: JSONValue] {
        let (ada, bob, _) = try await ModeratorTests.startedGame(port: port)
        try await ada.next("choose")
        ada.send(#"{"t":"choose","index":0}"#)
        let word = try #require(try await ada.next("turn")["word"]?.stringValue)
        if let frame {
            ada.send(binary: frame)
            _ = try await bob.nextBinary()
        }
        bob.send(#"{"t":"chat","text":"\#(word)"}"#)
        return try await bob.next("turnEnd")
    }

    static func expectedRaster() throws -> Raster {
        var drawing = Drawing(size: .standard)
        _ = try drawing.apply(frame: frame)
        return Renderer.render(drawing)
    }

    @Test func aFinishedTurnsDrawingIsServedAsPNGAndAPNG() async throws {
        try await withServer { port async throws in
            let end = try await Self.finishedTurn(port: port, frame: Self.frame)
            let drawing = try #require(end["drawing"]?.objectValue)
            let id = try #require(drawing["id"]?.stringValue)
            #expect(id.count == 22)
            #expect(drawing["png"]?.stringValue == "/d/\(id).png")
            #expect(drawing["timelapse"]?.stringValue == "/d/\(id).apng")
            let expected = try Self.expectedRaster()

            let png = try await HTTP.get(port: port, path: "/d/\(id).png")
            #expect(png.status == 200)
            #expect(png.header("Content-Type") == "image/png")
            #expect(png.body == PNGEncoder.encode(expected))
            let etag = try #require(png.header("ETag"))
            #expect(png.header("Cache-Control")?.contains("max-age") == true)
            let again = try await HTTP.get(port: port, path: "/d/\(id).png", headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)

            let apng = try await HTTP.get(port: port, path: "/d/\(id).apng")
            #expect(apng.status == 200)
            #expect(apng.header("Content-Type") == "image/apng")
            #expect(apng.header("ETag") != nil && apng.header("ETag") != etag)
            let log = StrokeLog(size: .standard, frames: [.init(at: 0, bytes: Self.frame)])
            #expect(apng.body == (try TimelapseEncoder.encode(log)))
            #expect(Array(apng.body[37..<41]) == Array("acTL".utf8))

            let small = try await HTTP.get(port: port, path: "/d/\(id).png?max=200")
            #expect(small.body == PNGEncoder.encode(expected.fitted(maxSide: 200)))
            let big = try await HTTP.get(port: port, path: "/d/\(id).png?scale=2")
            #expect(big.body == PNGEncoder.encode(expected.scaled(by: 2)))
            var scaled = TimelapseEncoder.Configuration()
            scaled.scale = 2
            #expect(try await HTTP.get(port: port, path: "/d/\(id).apng?scale=2").body
                == (try TimelapseEncoder.encode(log, configuration: scaled)))
            #expect(try await HTTP.get(port: port, path: "/d/\(id).png?scale=9").status == 400)
            #expect(try await HTTP.get(port: port, path: "/d/\(id).apng?max=3").status == 400)
        }
    }

    @Test func unknownOrMalformedIdsAre404() async throws {
        try await withServer { port async throws in
            for path in ["/d/AAAAAAAAAAAAAAAAAAAAAA.png", "/d/AAAAAAAAAAAAAAAAAAAAAA.apng", "/d/short.png",
                         "/d/AAAAAAAAAAAAAAAAAAAAAA.gif", "/d/AAAAAAAAAAAAAAAAAAAAAA"] {
                #expect(try await HTTP.get(port: port, path: path).status == 404, "\(path)")
            }
        }
    }

    @Test func anEmptyCanvasHasNoDrawingField() async throws {
        try await withServer { port async throws in
            let end = try await Self.finishedTurn(port: port, frame: nil)
            #expect(end["reason"]?.stringValue == "allGuessed")
            #expect(end["drawing"] == nil)
        }
    }

    /// A drawing no longer on the shelf of recent ones is read back from the database.
    @Test func theDatabaseKeepsTheDrawingsLog() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try GameDatabase(path: path)
        var random = RandomSource.seeded(3)
        let id = DrawingID.random(using: &random)
        let log = StrokeLog(size: .standard, word: "cat", frames: [.init(at: 12, bytes: Self.frame)])
        let record = TurnRecord(
            roomCode: RoomCode(parsing: "ABCDEF")!, game: 1, turn: 1, round: 1, drawer: PlayerID("ada"), word: "cat",
            reason: .allGuessed, scores: [:], strokes: log, drawing: id
        )
        var empty = record
        empty.drawing = nil
        let changes: [PersistenceWriter.Change] = [.turn(record), .turn(empty), .turn(empty)]
        try await database.pool.write { db in
            try PersistenceWriter.apply(changes, to: db, retention: 10)
        }
        #expect(try await database.drawingLog(id) == log)
        #expect(try await database.drawingLog(DrawingID.random(using: &random)) == nil)
    }

    @Test func theShelfAndTheImageCacheStayBounded() {
        let shelf = DrawingShelf(configuration: .init(maxDrawings: 3, maxBytes: 1 << 20))
        var random = RandomSource.seeded(5)
        let log = StrokeLog(size: .standard, frames: [.init(at: 0, bytes: Self.frame)])
        let ids = (0..<5).map { _ in DrawingID.random(using: &random) }
        for id in ids {
            shelf.keep(TurnRecord(
                roomCode: RoomCode(parsing: "ABCDEF")!, game: 1, turn: 1, round: 1, drawer: PlayerID("ada"), word: "cat",
                reason: .allGuessed, scores: [:], strokes: log, drawing: id
            ))
        }
        #expect(ids.map { shelf.log($0) != nil } == [false, false, true, true, true])

        let cache = DrawingImageCache(maxBytes: 1000)
        let keys = ids.map { DrawingImageCache.Key(id: $0, kind: .png, scale: 1, maxSide: nil) }
        for key in keys.prefix(3) { cache.store([UInt8](repeating: 1, count: 400), for: key) }
        #expect(cache.totalBytes <= 1000)
        #expect(cache.bytes(for: keys[0]) == nil && cache.bytes(for: keys[2]) != nil)
    }
}
